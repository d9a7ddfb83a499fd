import { ExternalLinkIcon, PencilIcon, SendIcon, Trash2Icon } from 'lucide-react';
import * as React from 'react';
import { generatePath, Link } from 'react-router';
import { toast } from 'sonner';
import { PINNED_ACTIONS, PINNED_ACTIONS_HEAD } from '@/components/pinned-column';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useInviteDeleteMutation } from '@/data/organizations/invite-delete-mutation';
import { useInviteResendMutation } from '@/data/organizations/invite-resend-mutation';
import { useMemberRemoveMutation } from '@/data/organizations/member-remove-mutation';
import type { OrganizationInvite } from '@/data/organizations/organization-invites-query';
import type { OrganizationMember } from '@/data/organizations/organization-members-query';
import type { OrganizationWorkspace } from '@/data/organizations/organization-workspaces-query';
import { WorkspaceAvatarGroup } from '@/features/team/avatars';
import { serverMessage } from '@/features/team/team/credit-limit-form';
import { displayName } from '@/features/team/team/format';
import { PersonCell } from '@/features/team/team/person-cell';
import { RemoveDialog } from '@/features/team/team/remove-dialog';
import { INVITE_PENDING } from '@/features/team/team/workspaces-tab';
import { useLinks } from '@/hooks/use-links';
import { useMailKeptInLogCheck } from '@/hooks/use-mail-delivery';
import { paths } from '@/lib/paths';
import { TEAM_MESSAGES } from '@/lib/team/messages';
import { inviteWorkspaceIds, memberWorkspaceIds, type TeamPermissions } from '@/lib/team/permissions';
import { cn } from '@/lib/utils';

type TeamTabProps = {
  organizationId: number;
  organizationName: string;
  members: readonly OrganizationMember[];
  invites: readonly OrganizationInvite[];
  workspaces: readonly OrganizationWorkspace[];
  permissions: TeamPermissions;
};

/** A member or an invite, as the table shows it. */
type Row = {
  kind: 'member' | 'invite';
  id: number;
  name: string;
  secondary: React.ReactNode;
  avatarUrl: string | null;
  role: 'admin' | 'member';
  workspaceAdmin: boolean;
  workspaceIds: number[];
};

type Removal = { kind: 'member' | 'invite'; id: number; name: string };

function memberRow(member: OrganizationMember): Row {
  const name = displayName(member.user);
  return {
    kind: 'member',
    id: member.id,
    name,
    secondary: name === member.user.username ? null : member.user.username,
    avatarUrl: member.user.profile.avatarUrl,
    role: member.role,
    workspaceAdmin: member.workspaceMemberships.some((row) => row.isAdmin),
    workspaceIds: memberWorkspaceIds(member),
  };
}

function inviteRow(invite: OrganizationInvite): Row {
  return {
    kind: 'invite',
    id: invite.id,
    name: invite.invite.email,
    secondary: (
      <>
        {INVITE_PENDING}
        {invite.expired ? (
          <Badge variant="outline" className="text-destructive border-destructive/40 py-0">
            Expired
          </Badge>
        ) : null}
      </>
    ),
    avatarUrl: null,
    role: invite.role,
    workspaceAdmin: false,
    workspaceIds: inviteWorkspaceIds(invite),
  };
}

const head = 'text-muted-foreground h-9 px-4 text-xs font-medium';

function AdminCell({ row }: { row: Row }) {
  if (row.role === 'admin')
    return <Badge className="bg-primary/15 text-primary border-primary/25">Organization admin</Badge>;
  if (row.workspaceAdmin) return <span className="text-muted-foreground text-sm">Workspace admin</span>;
  return <span className="text-muted-foreground">—</span>;
}

/** Members and invites of the organization, with their workspaces and what the caller may do. */
export function TeamTab({
  organizationId,
  organizationName,
  members,
  invites,
  workspaces,
  permissions,
}: TeamTabProps) {
  const [removal, setRemoval] = React.useState<Removal | null>(null);
  const removeMember = useMemberRemoveMutation();
  const deleteInvite = useInviteDeleteMutation();
  const resend = useInviteResendMutation();
  const mailKept = useMailKeptInLogCheck();
  const { permissionsGuideUrl } = useLinks();
  const workspaceById = React.useMemo(() => new Map(workspaces.map((w) => [w.id, w])), [workspaces]);
  const rows = [...members.map(memberRow), ...invites.map(inviteRow)];

  const editPath = (row: Row) =>
    row.kind === 'member'
      ? generatePath(paths.teamEditMember, {
          organizationId: String(organizationId),
          memberId: String(row.id),
        })
      : generatePath(paths.teamEditInvite, {
          organizationId: String(organizationId),
          inviteId: String(row.id),
        });

  const confirmRemoval = () => {
    if (!removal) return;
    const callbacks = {
      onSuccess: () => {
        toast.success(
          removal.kind === 'member' ? `${removal.name} removed` : `Invite to ${removal.name} deleted`,
        );
        setRemoval(null);
      },
      onError: (error: Error) => {
        toast.error(serverMessage(error));
        setRemoval(null);
      },
    };
    if (removal.kind === 'member')
      removeMember.mutate({ organizationId, membershipId: removal.id }, callbacks);
    else deleteInvite.mutate({ organizationId, inviteId: removal.id }, callbacks);
  };

  const resendInvite = (row: Row) =>
    resend.mutate(
      { organizationId, inviteId: row.id },
      {
        onSuccess: () =>
          void mailKept().then((kept) =>
            kept ? toast.info(TEAM_MESSAGES.inviteKeptAgain) : toast.success(TEAM_MESSAGES.inviteResent),
          ),
        onError: (error) => toast.error(serverMessage(error)),
      },
    );

  return (
    <div className="flex flex-col gap-3">
      <div className="bg-card overflow-hidden rounded-xl border">
        <Table>
          <TableHeader className="bg-muted/40">
            <TableRow className="hover:bg-transparent">
              <TableHead className={head}>Username / Email</TableHead>
              <TableHead className={head}>Admin</TableHead>
              <TableHead className={head}>Workspaces</TableHead>
              <TableHead className={cn(head, 'text-right', PINNED_ACTIONS_HEAD)}>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={`${row.kind}-${row.id}`}>
                <TableCell className="px-4 py-2.5">
                  <PersonCell
                    name={row.name}
                    secondary={row.secondary}
                    avatarUrl={row.avatarUrl}
                    invited={row.kind === 'invite'}
                  />
                </TableCell>
                <TableCell className="px-4">
                  <AdminCell row={row} />
                </TableCell>
                <TableCell className="px-4">
                  <WorkspaceAvatarGroup
                    workspaces={row.workspaceIds.flatMap((id) => workspaceById.get(id) ?? [])}
                  />
                </TableCell>
                <TableCell className={cn('px-4', PINNED_ACTIONS)}>
                  <div className="flex justify-end gap-1">
                    {row.kind === 'invite' && permissions.canManageMembers ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        aria-label={`Resend invite to ${row.name}`}
                        disabled={resend.isPending && resend.variables?.inviteId === row.id}
                        onClick={() => resendInvite(row)}
                      >
                        <SendIcon aria-hidden="true" />
                        <span className="max-sm:sr-only">Resend Invite</span>
                      </Button>
                    ) : null}
                    {permissions.canManageMembers ? (
                      <Button asChild variant="ghost" size="sm">
                        <Link to={editPath(row)} aria-label={`Edit ${row.name}`}>
                          <PencilIcon aria-hidden="true" />
                          <span className="max-sm:sr-only">Edit</span>
                        </Link>
                      </Button>
                    ) : null}
                    {permissions.mayRemove(row.role, row.workspaceIds) ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-destructive hover:text-destructive"
                        aria-label={`Remove ${row.name}`}
                        onClick={() => setRemoval({ kind: row.kind, id: row.id, name: row.name })}
                      >
                        <Trash2Icon aria-hidden="true" />
                        <span className="max-sm:sr-only">Remove</span>
                      </Button>
                    ) : null}
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {permissionsGuideUrl ? (
        <p className="text-muted-foreground text-sm">
          What admins and members may do is described in the{' '}
          <a
            href={permissionsGuideUrl}
            target="_blank"
            rel="noreferrer"
            className="text-primary inline-flex items-center gap-1 underline-offset-4 hover:underline"
          >
            permissions guide
            <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
          </a>
          .
        </p>
      ) : null}
      <RemoveDialog
        removal={removal}
        organizationName={organizationName}
        pending={removeMember.isPending || deleteInvite.isPending}
        onConfirm={confirmRemoval}
        onCancel={() => setRemoval(null)}
      />
    </div>
  );
}
