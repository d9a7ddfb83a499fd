import { ChevronRightIcon, FolderIcon, PencilIcon } from 'lucide-react';
import * as React from 'react';
import { generatePath, Link } from 'react-router';

import { EmptyState } from '@/components/empty-state';
import { PINNED_ACTIONS, PINNED_ACTIONS_HEAD } from '@/components/pinned-column';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Collapsible, CollapsibleContent, CollapsibleTrigger } from '@/components/ui/collapsible';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import type { OrganizationInvite } from '@/data/organizations/organization-invites-query';
import type { OrganizationMember } from '@/data/organizations/organization-members-query';
import type { OrganizationWorkspace } from '@/data/organizations/organization-workspaces-query';
import { WorkspaceAvatar } from '@/features/team/avatars';
import { CreditLimitForm } from '@/features/team/team/credit-limit-form';
import { displayName, formatNumber, plural } from '@/features/team/team/format';
import { PersonCell } from '@/features/team/team/person-cell';
import { paths } from '@/lib/paths';
import type { TeamPermissions } from '@/lib/team/permissions';
import { cn } from '@/lib/utils';

export const INVITE_PENDING = 'Invitation not yet accepted';

type Row = {
  key: string;
  name: string;
  secondary: string;
  avatarUrl: string | null;
  invited: boolean;
  isAdmin: boolean;
  coreLimit: number;
  /** Null: no limit. */
  creditLimit: number | null;
  /** Where Edit goes (the organization membership or the invite), if known. */
  editPath: string | null;
};

function workspaceRows(
  workspace: OrganizationWorkspace,
  organizationId: number,
  membershipIdOfUser: Map<number, number>,
  invites: readonly OrganizationInvite[],
): Row[] {
  const members: Row[] = workspace.membershipSet.map((member) => {
    const membershipId = membershipIdOfUser.get(member.user.id);
    const name = displayName(member.user);
    return {
      key: `member-${member.id}`,
      name,
      secondary: name === member.user.username ? '' : member.user.username,
      avatarUrl: member.user.profile.avatarUrl,
      invited: false,
      isAdmin: member.isAdmin,
      coreLimit: member.coreLimit,
      creditLimit: member.creditLimit,
      editPath:
        membershipId === undefined
          ? null
          : generatePath(paths.teamEditMember, {
              organizationId: String(organizationId),
              memberId: String(membershipId),
            }),
    };
  });
  const pending: Row[] = invites.flatMap((invite) =>
    invite.workspaceInvites
      .filter((row) => row.workspaceId === workspace.id)
      .map((row) => ({
        key: `invite-${row.id}`,
        name: invite.invite.email,
        secondary: invite.expired ? 'Invitation expired' : INVITE_PENDING,
        avatarUrl: null,
        invited: true,
        isAdmin: row.isAdmin,
        coreLimit: row.coreLimit,
        creditLimit: row.creditLimit,
        editPath: generatePath(paths.teamEditInvite, {
          organizationId: String(organizationId),
          inviteId: String(invite.id),
        }),
      })),
  );
  return [...members, ...pending];
}

function WorkspaceCard({
  workspace,
  organizationId,
  rows,
  permissions,
  defaultOpen,
}: {
  workspace: OrganizationWorkspace;
  organizationId: number;
  rows: Row[];
  permissions: TeamPermissions;
  defaultOpen: boolean;
}) {
  const [open, setOpen] = React.useState(defaultOpen);
  const canEdit = permissions.adminsWorkspace(workspace.id);
  const invited = rows.filter((row) => row.invited).length;
  const summary = [
    plural(rows.length - invited, 'member'),
    invited > 0 ? plural(invited, 'pending invite') : null,
  ]
    .filter(Boolean)
    .join(' · ');

  return (
    <Collapsible open={open} onOpenChange={setOpen} asChild>
      <section aria-label={workspace.name} className="bg-card overflow-hidden rounded-xl border">
        <div className="flex flex-wrap items-center gap-4 px-4 py-3">
          <CollapsibleTrigger asChild>
            <button
              type="button"
              className="hover:bg-accent/50 -mx-2 flex min-w-48 flex-1 items-center gap-3 rounded-lg px-2 py-1.5 text-left"
            >
              <ChevronRightIcon
                className={cn(
                  'text-muted-foreground size-4 shrink-0 transition-transform',
                  open && 'rotate-90',
                )}
                aria-hidden="true"
              />
              <WorkspaceAvatar workspace={workspace} size="lg" />
              <span className="grid min-w-0 leading-tight">
                <span className="truncate font-medium">{workspace.name}</span>
                <span className="text-muted-foreground truncate text-xs">{summary}</span>
                {/* Named by what it shows (WCAG 2.5.3); aria-expanded says whether they show. */}
                <span className="sr-only">, members</span>
              </span>
            </button>
          </CollapsibleTrigger>
          <CreditLimitForm workspace={workspace} organizationId={organizationId} canEdit={canEdit} />
        </div>
        <CollapsibleContent>
          <div className="border-t">
            {rows.length === 0 ? (
              <p className="text-muted-foreground px-4 py-6 text-center text-sm">No members yet.</p>
            ) : (
              <Table>
                <TableHeader className="bg-muted/40">
                  <TableRow className="hover:bg-transparent">
                    <TableHead className="text-muted-foreground h-9 px-4 text-xs">Member</TableHead>
                    <TableHead className="text-muted-foreground h-9 px-4 text-xs">Role</TableHead>
                    <TableHead className="text-muted-foreground h-9 px-4 text-right text-xs">
                      Core limit
                    </TableHead>
                    <TableHead className="text-muted-foreground h-9 px-4 text-right text-xs">
                      Credit limit
                    </TableHead>
                    <TableHead className={cn('h-9 w-20 px-4', PINNED_ACTIONS_HEAD)}>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {rows.map((row) => (
                    <TableRow key={row.key}>
                      <TableCell className="px-4 py-2.5">
                        <PersonCell
                          name={row.name}
                          secondary={row.secondary}
                          avatarUrl={row.avatarUrl}
                          invited={row.invited}
                        />
                      </TableCell>
                      <TableCell className="px-4">
                        {row.isAdmin ? (
                          <Badge variant="secondary">Admin</Badge>
                        ) : (
                          <span className="text-muted-foreground">Member</span>
                        )}
                      </TableCell>
                      <TableCell className="px-4 text-right tabular-nums">
                        {formatNumber(row.coreLimit)}
                      </TableCell>
                      <TableCell className="px-4 text-right tabular-nums">
                        {row.creditLimit === null ? 'No limit' : formatNumber(row.creditLimit)}
                      </TableCell>
                      <TableCell className={cn('px-4 text-right', PINNED_ACTIONS)}>
                        {canEdit && row.editPath ? (
                          <Button asChild variant="ghost" size="sm">
                            <Link to={row.editPath} aria-label={`Edit ${row.name}`}>
                              <PencilIcon aria-hidden="true" />
                              <span className="max-sm:sr-only">Edit</span>
                            </Link>
                          </Button>
                        ) : null}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </div>
        </CollapsibleContent>
      </section>
    </Collapsible>
  );
}

type WorkspacesTabProps = {
  organizationId: number;
  workspaces: readonly OrganizationWorkspace[];
  members: readonly OrganizationMember[];
  invites: readonly OrganizationInvite[];
  permissions: TeamPermissions;
};

/** One expandable card per workspace: credit limit, members and pending invites. */
export function WorkspacesTab({
  organizationId,
  workspaces,
  members,
  invites,
  permissions,
}: WorkspacesTabProps) {
  const membershipIdOfUser = React.useMemo(
    () => new Map(members.map((member) => [member.user.id, member.id])),
    [members],
  );
  if (workspaces.length === 0) {
    return (
      <EmptyState
        icon={FolderIcon}
        title="No workspaces have been created."
        description={
          permissions.isOrganizationAdmin
            ? 'Workspaces hold clusters, software environments and their members.'
            : 'An organization admin can add workspaces.'
        }
        action={
          permissions.isOrganizationAdmin ? (
            <Button asChild size="sm">
              <Link to={generatePath(paths.teamCreateWorkspace, { organizationId: String(organizationId) })}>
                Create workspace
              </Link>
            </Button>
          ) : null
        }
      />
    );
  }
  return (
    <div className="flex flex-col gap-3">
      {workspaces.map((workspace, index) => (
        <WorkspaceCard
          key={workspace.id}
          workspace={workspace}
          organizationId={organizationId}
          rows={workspaceRows(workspace, organizationId, membershipIdOfUser, invites)}
          permissions={permissions}
          defaultOpen={index === 0}
        />
      ))}
    </div>
  );
}
