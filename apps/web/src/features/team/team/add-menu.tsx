import { Building2Icon, ChevronDownIcon, FolderPlusIcon, PlusIcon, UserPlusIcon } from 'lucide-react';
import { generatePath, useNavigate } from 'react-router';

import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { WhyDisabled } from '@/components/why-disabled';
import { paths } from '@/lib/paths';
import { type TeamPermissions, TOOLTIPS } from '@/lib/team/permissions';

type AddMenuProps = {
  /** The organization shown; without one only a new organization can be added. */
  organizationId: number | null;
  permissions: TeamPermissions | null;
  workspaceCount: number;
};

/** Add: Teammate, Workspace, Organization, each unavailable with its reason. */
export function AddMenu({ organizationId, permissions, workspaceCount }: AddMenuProps) {
  const navigate = useNavigate();
  const teammateReason =
    organizationId === null || !permissions
      ? 'Select an organization first.'
      : !permissions.canManageMembers
        ? TOOLTIPS.addTeammates
        : workspaceCount === 0
          ? TOOLTIPS.noWorkspaces
          : null;
  const workspaceReason =
    organizationId === null || !permissions
      ? 'Select an organization first.'
      : !permissions.isOrganizationAdmin
        ? TOOLTIPS.addWorkspaces
        : null;

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button>
          <PlusIcon aria-hidden="true" />
          Add
          <ChevronDownIcon className="opacity-70" aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-48">
        <WhyDisabled reason={teammateReason} side="left" className="flex w-full">
          <DropdownMenuItem
            className="w-full"
            disabled={teammateReason !== null}
            onSelect={() =>
              navigate(generatePath(paths.teamAddMember, { organizationId: String(organizationId) }))
            }
          >
            <UserPlusIcon aria-hidden="true" />
            Teammate
          </DropdownMenuItem>
        </WhyDisabled>
        <WhyDisabled reason={workspaceReason} side="left" className="flex w-full">
          <DropdownMenuItem
            className="w-full"
            disabled={workspaceReason !== null}
            onSelect={() =>
              navigate(generatePath(paths.teamCreateWorkspace, { organizationId: String(organizationId) }))
            }
          >
            <FolderPlusIcon aria-hidden="true" />
            Workspace
          </DropdownMenuItem>
        </WhyDisabled>
        <DropdownMenuItem onSelect={() => navigate(paths.teamCreateOrganization)}>
          <Building2Icon aria-hidden="true" />
          Organization
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
