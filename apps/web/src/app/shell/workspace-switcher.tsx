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
import { type Scope, useScope, workspaceScope, workspacesInScope } from '@/lib/scopes';
import { cn } from '@/lib/utils';
import { useWorkspace, type Workspace } from '@/lib/workspace';

// Decorative: the name beside it says the same.
function Mark({ name }: { name: string }) {
  return (
    <span
      aria-hidden="true"
      className="bg-sidebar-accent text-sidebar-accent-foreground flex size-8 shrink-0 items-center justify-center rounded-lg border text-xs font-semibold"
    >
      {initials(name)}
    </span>
  );
}

/** What the switcher shows: the current workspace, or the scope when it holds none of the user's. */
function shown(scope: Scope | null, workspace: Workspace, inScope: boolean) {
  if (inScope || !scope)
    return {
      name: workspace.name,
      detail: workspace.organization.isPersonal ? 'Personal' : workspace.organization.name,
      kind: 'Workspace',
      yours: true,
    };
  // Picked on the Team page (or by staff, any organization): the lists show it, so the sidebar does.
  const [kind, detail] =
    scope.type === 'account'
      ? ['Workspace', NOT_YOURS]
      : [scope.type === 'organization' ? 'Organization' : 'Scope', NO_WORKSPACE_OF_YOURS];
  return {
    name: scope.name,
    detail,
    kind,
    yours: false,
  };
}

/** Said under an organization (or staff list) without a workspace of the user's, and a workspace not theirs. */
export const NO_WORKSPACE_OF_YOURS = 'No workspace of yours';
const NOT_YOURS = 'Not a workspace of yours';

/**
 * Picks the current workspace (stored; pages that work per workspace read `useWorkspace`). While
 * the picked scope holds none of the user's workspaces (an organization they have no workspace
 * in), it shows that scope, saying so, as the Dashboard and the scope picker do.
 */
export function WorkspaceSwitcher() {
  const { workspace, workspaces, selectWorkspace } = useWorkspace();
  const { scope, scopes, setScope } = useScope();
  const { isMobile } = useSidebar();
  if (!workspace) return null;
  const inScope = workspacesInScope(scope, workspaces);
  const current = shown(scope, workspace, inScope.length > 0);

  // A workspace outside what the lists show becomes what they show (see ScopeWorkspaceSync).
  function select(next: Workspace) {
    selectWorkspace(next.slug);
    if (inScope.some((candidate) => candidate.id === next.id)) return;
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
              tooltip={`${current.kind}: ${current.name}`}
              // Two lines may not hold "No workspace of yours" beside the mark: the button grows instead.
              className={cn('data-[state=open]:bg-sidebar-accent', !current.yours && 'h-auto min-h-12')}
            >
              <Mark name={current.name} />
              {/* Named by what it shows (WCAG 2.5.3), after what that is: "Workspace: acme-data Acme". */}
              <div className="grid flex-1 text-left text-sm leading-tight">
                <span className="truncate font-medium">
                  <span className="sr-only">{current.kind}: </span>
                  {current.name}
                </span>
                <span
                  className={cn('text-muted-foreground text-xs', current.yours ? 'truncate' : 'leading-snug')}
                >
                  {current.detail}
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
                {inScope.length > 0 && candidate.id === workspace.id ? (
                  <CheckIcon aria-label="Selected" />
                ) : null}
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      </SidebarMenuItem>
    </SidebarMenu>
  );
}
