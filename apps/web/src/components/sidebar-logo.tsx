import { Link } from 'react-router';

import { LogoMark } from '@/components/logo';
import { SidebarMenu, SidebarMenuButton, SidebarMenuItem } from '@/components/ui/sidebar';
import { paths } from '@/lib/paths';

/** The logo at the top of a sidebar, linking to root; only the mark shows when collapsed. */
export function SidebarLogo() {
  return (
    <SidebarMenu>
      <SidebarMenuItem>
        <SidebarMenuButton asChild size="lg" tooltip="Cumulus">
          <Link to={paths.root}>
            {/* Wrapped so the menu button's [&>svg]:size-4 rule leaves the mark at full size. */}
            <span className="flex size-8 shrink-0 items-center justify-center">
              <LogoMark className="size-7" />
            </span>
            <span className="text-[15px] font-semibold tracking-tight">Cumulus</span>
          </Link>
        </SidebarMenuButton>
      </SidebarMenuItem>
    </SidebarMenu>
  );
}
