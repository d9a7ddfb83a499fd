import { ExternalLinkIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { isActive, NAV_ENTRIES, type NavEntry, STAFF_NAV_ENTRIES, supportLinks } from '@/app/shell/nav';
import { UserMenu } from '@/app/shell/user-menu';
import { WorkspaceSwitcher } from '@/app/shell/workspace-switcher';
import { SidebarLogo } from '@/components/sidebar-logo';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarRail,
  SidebarSeparator,
  useSidebar,
} from '@/components/ui/sidebar';
import { useLinks } from '@/hooks/use-links';
import { useSignedIn } from '@/lib/signed-in';

function NavGroup({ label, entries }: { label?: string; entries: NavEntry[] }) {
  const { pathname } = useLocation();
  const { isMobile, setOpenMobile } = useSidebar();
  return (
    <SidebarGroup>
      {label ? <SidebarGroupLabel>{label}</SidebarGroupLabel> : null}
      <SidebarMenu>
        {entries.map((entry) => {
          const active = isActive(entry.to, pathname);
          return (
            <SidebarMenuItem key={entry.to}>
              <SidebarMenuButton asChild isActive={active} tooltip={entry.title}>
                <Link
                  to={entry.to}
                  aria-current={active ? 'page' : undefined}
                  onClick={() => isMobile && setOpenMobile(false)}
                >
                  <entry.icon aria-hidden="true" />
                  <span>{entry.title}</span>
                </Link>
              </SidebarMenuButton>
            </SidebarMenuItem>
          );
        })}
      </SidebarMenu>
    </SidebarGroup>
  );
}

/** The console's sidebar: entries, staff entries, support, user menu. */
export function AppSidebar() {
  const { user } = useSignedIn();
  const entries = NAV_ENTRIES.filter((entry) => entry.visible?.(user) ?? true);
  const support = supportLinks(useLinks());

  return (
    <Sidebar collapsible="icon" aria-label="Main navigation">
      <SidebarHeader>
        <SidebarLogo />
        <WorkspaceSwitcher />
      </SidebarHeader>
      <SidebarSeparator />
      <SidebarContent>
        <NavGroup entries={entries} />
        {user.isStaff ? <NavGroup label="Staff" entries={STAFF_NAV_ENTRIES} /> : null}
        {support.length > 0 ? (
          <SidebarGroup className="mt-auto">
            <SidebarGroupLabel>Support</SidebarGroupLabel>
            <SidebarMenu>
              {support.map((link) => (
                <SidebarMenuItem key={link.title}>
                  <SidebarMenuButton asChild tooltip={link.title}>
                    <a
                      href={link.href}
                      {...(link.newTab ? { target: '_blank', rel: 'noreferrer' } : {})}
                      className="group/support"
                    >
                      <link.icon aria-hidden="true" />
                      <span>{link.title}</span>
                      {link.newTab ? (
                        <ExternalLinkIcon
                          aria-label="(opens in a new tab)"
                          className="text-muted-foreground ml-auto !size-3 opacity-0 group-hover/support:opacity-100"
                        />
                      ) : null}
                    </a>
                  </SidebarMenuButton>
                </SidebarMenuItem>
              ))}
            </SidebarMenu>
          </SidebarGroup>
        ) : null}
      </SidebarContent>
      <SidebarFooter>
        <UserMenu />
      </SidebarFooter>
      <SidebarRail />
    </Sidebar>
  );
}
