import {
  BookOpenIcon,
  ChevronsUpDownIcon,
  LayersIcon,
  LayoutGridIcon,
  LogOutIcon,
  MessageSquareIcon,
  MousePointerClickIcon,
  PanelsTopLeftIcon,
  TableIcon,
  TagIcon,
  TextCursorInputIcon,
  UserIcon,
} from 'lucide-react';
import { Link, useLocation } from 'react-router';

import { SidebarLogo } from '@/components/sidebar-logo';
import { Avatar, AvatarFallback } from '@/components/ui/avatar';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
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
  useSidebar,
} from '@/components/ui/sidebar';
import { paths } from '@/lib/paths';

export const SANDBOX_SECTIONS = [
  { id: 'buttons', title: 'Buttons', icon: MousePointerClickIcon },
  { id: 'badges', title: 'Badges and states', icon: TagIcon },
  { id: 'forms', title: 'Forms', icon: TextCursorInputIcon },
  { id: 'overlays', title: 'Overlays', icon: LayersIcon },
  { id: 'table', title: 'Data table', icon: TableIcon },
  { id: 'feedback', title: 'Feedback', icon: MessageSquareIcon },
  { id: 'layout', title: 'Layout', icon: LayoutGridIcon },
] as const;

/** The sidebar as the console shell will use it: logo, grouped entries, user menu at the bottom. */
export function SandboxSidebar() {
  const { hash } = useLocation();
  const { isMobile } = useSidebar();

  return (
    <Sidebar collapsible="icon">
      <SidebarHeader>
        <SidebarLogo />
      </SidebarHeader>
      <SidebarContent>
        <SidebarGroup>
          <SidebarGroupLabel>Components</SidebarGroupLabel>
          <SidebarMenu>
            {SANDBOX_SECTIONS.map((section) => (
              <SidebarMenuItem key={section.id}>
                <SidebarMenuButton asChild isActive={hash === `#${section.id}`} tooltip={section.title}>
                  <a href={`#${section.id}`}>
                    <section.icon />
                    <span>{section.title}</span>
                  </a>
                </SidebarMenuButton>
              </SidebarMenuItem>
            ))}
          </SidebarMenu>
        </SidebarGroup>
        <SidebarGroup className="mt-auto">
          <SidebarGroupLabel>Support</SidebarGroupLabel>
          <SidebarMenu>
            <SidebarMenuItem>
              <SidebarMenuButton asChild tooltip="Auth card">
                <Link to={`${paths.componentSandbox}/auth-card`}>
                  <PanelsTopLeftIcon />
                  <span>Auth card preview</span>
                </Link>
              </SidebarMenuButton>
            </SidebarMenuItem>
            <SidebarMenuItem>
              <SidebarMenuButton tooltip="Docs">
                <BookOpenIcon />
                <span>Docs</span>
              </SidebarMenuButton>
            </SidebarMenuItem>
          </SidebarMenu>
        </SidebarGroup>
      </SidebarContent>
      <SidebarFooter>
        <SidebarMenu>
          <SidebarMenuItem>
            <DropdownMenu>
              <DropdownMenuTrigger asChild>
                <SidebarMenuButton size="lg" className="data-[state=open]:bg-sidebar-accent">
                  <Avatar className="size-8 rounded-lg">
                    <AvatarFallback className="rounded-lg text-xs">AL</AvatarFallback>
                  </Avatar>
                  <div className="grid flex-1 text-left text-sm leading-tight">
                    <span className="truncate font-medium">Ada Lovelace</span>
                    <span className="text-muted-foreground truncate text-xs">ada@example.com</span>
                  </div>
                  <ChevronsUpDownIcon className="ml-auto size-4" />
                </SidebarMenuButton>
              </DropdownMenuTrigger>
              <DropdownMenuContent
                side={isMobile ? 'bottom' : 'right'}
                align="end"
                sideOffset={4}
                className="w-(--radix-dropdown-menu-trigger-width) min-w-56"
              >
                <DropdownMenuLabel className="font-normal">
                  <div className="grid text-sm leading-tight">
                    <span className="font-medium">Ada Lovelace</span>
                    <span className="text-muted-foreground text-xs">ada@example.com</span>
                  </div>
                </DropdownMenuLabel>
                <DropdownMenuSeparator />
                <DropdownMenuItem>
                  <UserIcon />
                  Profile
                </DropdownMenuItem>
                <DropdownMenuItem>
                  <LogOutIcon />
                  Log out
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarFooter>
      <SidebarRail />
    </Sidebar>
  );
}
