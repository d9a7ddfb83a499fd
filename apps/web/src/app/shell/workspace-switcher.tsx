import { CheckIcon, ChevronsUpDownIcon } from 'lucide-react';

import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { SidebarMenu, SidebarMenuButton, SidebarMenuItem, useSidebar } from '@/components/ui/sidebar';
import { initials } from '@/components/user-avatar';
import { useScope, workspaceScope, workspacesInScope } from '@/features/scopes';
import { useWorkspace, type Workspace } from '@/lib/workspace';

function WorkspaceMark({ workspace }: { workspace: Workspace }) {
  return (
    <span className="bg-sidebar-accent text-sidebar-accent-foreground flex size-8 shrink-0 items-center justify-center rounded-lg border text-xs font-semibold">
      {initials(workspace.name)}
    </span>
  );
}

/** Picks the current workspace (stored; pages that work per workspace read `useWorkspace`). */
export function WorkspaceSwitcher() {
  const { workspace, workspaces, selectWorkspace } = useWorkspace();
  const { scope, scopes, setScope } = useScope();
  const { isMobile } = useSidebar();
  if (!workspace) return null;

  // A workspace outside what the lists show becomes what they show (see ScopeWorkspaceSync).
  function select(next: Workspace) {
    selectWorkspace(next.slug);
    if (workspacesInScope(scope, workspaces).some((candidate) => candidate.id === next.id)) return;
    const listed = workspaceScope(scopes, next.id);
    if (listed) setScope(listed);
  }

  return (
    <SidebarMenu>
      <SidebarMenuItem>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <SidebarMenuButton
              size="lg"
              tooltip={`Workspace: ${workspace.name}`}
              aria-label={`Workspace: ${workspace.name}`}
              className="data-[state=open]:bg-sidebar-accent"
            >
              <WorkspaceMark workspace={workspace} />
              <div className="grid flex-1 text-left text-sm leading-tight">
                <span className="truncate font-medium">{workspace.name}</span>
                <span className="text-muted-foreground truncate text-xs">
                  {workspace.organization.isPersonal ? 'Personal' : workspace.organization.name}
                </span>
              </div>
              <ChevronsUpDownIcon className="ml-auto size-4" aria-hidden="true" />
            </SidebarMenuButton>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            side={isMobile ? 'bottom' : 'right'}
            align="start"
            sideOffset={4}
            className="w-(--radix-dropdown-menu-trigger-width) min-w-56"
          >
            <DropdownMenuLabel className="text-muted-foreground text-xs">Workspaces</DropdownMenuLabel>
            {workspaces.map((candidate) => (
              <DropdownMenuItem key={candidate.id} onSelect={() => select(candidate)}>
                <span className="grid flex-1 leading-tight">
                  <span className="truncate">{candidate.name}</span>
                  <span className="text-muted-foreground truncate text-xs">
                    {candidate.organization.name}
                  </span>
                </span>
                {candidate.id === workspace.id ? <CheckIcon aria-label="Selected" /> : null}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      </SidebarMenuItem>
    </SidebarMenu>
  );
}
