import { UsersIcon } from 'lucide-react';
import { toast } from 'sonner';
import { TimeAgoCell } from '@/components/clusters/cluster-cells';
import { DataTable, type DataTableColumn } from '@/components/data-table';
import { EmptyState } from '@/components/empty-state';
import { ErrorState } from '@/components/error-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Switch } from '@/components/ui/switch';
import { useStaffUserUnlockMutation } from '@/data/staff/staff-user-unlock-mutation';
import { useStaffUserUpdateMutation } from '@/data/staff/staff-user-update-mutation';
import { type StaffUser, useStaffUsersQuery } from '@/data/staff/staff-users-query';
import { SearchBox, useSearchText } from '@/features/staff/search-box';
import { SEARCH_PARAM } from '@/features/staff/search-params';
import { usePaginationParams } from '@/hooks/use-pagination-params';
import { errorMessage, serverMessage } from '@/lib/api/errors';
import { useSignedIn } from '@/lib/signed-in';

function StatusBadge({ user }: { user: StaffUser }) {
  if (!user.isActive)
    return (
      <Badge variant="outline" className="border-destructive/40 text-destructive">
        Locked
      </Badge>
    );
  if (user.lockedOut)
    return (
      <Badge variant="outline" className="border-warning/40 text-warning" title="Too many failed sign-ins">
        Locked out
      </Badge>
    );
  if (!user.emailVerified) return <Badge variant="outline">Unverified</Badge>;
  return (
    <Badge variant="outline" className="text-muted-foreground">
      Active
    </Badge>
  );
}

/** Lock (no sign-in, every session refused) or unlock: reactivates and clears failed sign-ins. */
function LockButton({ user, self }: { user: StaffUser; self: boolean }) {
  const update = useStaffUserUpdateMutation();
  const unlock = useStaffUserUnlockMutation();
  const pending = update.isPending || unlock.isPending;
  const fail = (error: Error) => toast.error(serverMessage(error));
  if (!user.isActive || user.lockedOut) {
    return (
      <Button
        variant="outline"
        size="sm"
        disabled={pending}
        aria-label={`Unlock ${user.username}`}
        onClick={async () => {
          try {
            if (!user.isActive) await update.mutateAsync({ id: user.id, change: { is_active: true } });
            if (user.lockedOut) await unlock.mutateAsync(user.id);
            toast.success(`${user.username} can sign in again`);
          } catch (error) {
            fail(error as Error);
          }
        }}
      >
        Unlock
      </Button>
    );
  }
  return (
    <Button
      variant="outline"
      size="sm"
      disabled={pending || self}
      title={self ? 'You cannot lock your own account' : undefined}
      aria-label={`Lock ${user.username}`}
      className="hover:text-destructive"
      onClick={() =>
        update.mutate(
          { id: user.id, change: { is_active: false } },
          { onSuccess: () => toast.success(`${user.username} is locked out`), onError: fail },
        )
      }
    >
      Lock
    </Button>
  );
}

/** Per-user settings staff flip: the switch's name and the toast after a change. */
const SWITCHES = {
  is_staff: {
    label: 'Staff',
    said: (name: string, on: boolean) => (on ? `${name} is staff` : `${name} is no longer staff`),
  },
  should_see_notebook_page: {
    label: 'Notebooks page',
    said: (name: string, on: boolean) =>
      on ? `${name} sees the Notebooks page` : `${name} no longer sees the Notebooks page`,
  },
} as const;

/** The staff flag (never one's own) or the Notebooks page of a user. */
function UserSwitch({
  user,
  field,
  disabled = false,
}: {
  user: StaffUser;
  field: keyof typeof SWITCHES;
  disabled?: boolean;
}) {
  const update = useStaffUserUpdateMutation();
  const { label, said } = SWITCHES[field];
  return (
    <Switch
      checked={field === 'is_staff' ? user.isStaff : user.shouldSeeNotebookPage}
      disabled={update.isPending || disabled}
      aria-label={`${label}: ${user.username}`}
      onCheckedChange={(on) =>
        update.mutate(
          { id: user.id, change: { [field]: on } },
          {
            onSuccess: () => toast.success(said(user.username, on)),
            onError: (error) => toast.error(serverMessage(error)),
          },
        )
      }
    />
  );
}

/** Users: search, who is locked, lock/unlock, the staff flag, who sees the Notebooks page. */
export function UsersTab() {
  const { user: me } = useSignedIn();
  const { text, setText, search } = useSearchText(SEARCH_PARAM);
  const { page, pageSize, setPage, setPageSize } = usePaginationParams();
  const users = useStaffUsersQuery({ search: search || undefined, offset: page * pageSize, limit: pageSize });

  const columns: DataTableColumn<StaffUser>[] = [
    {
      id: 'user',
      header: 'User',
      cell: (user) => (
        <div className="flex max-w-56 min-w-0 flex-col sm:max-w-80">
          <span className="truncate font-medium">{user.username}</span>
          <span className="text-muted-foreground truncate text-xs">
            {user.email}
            {user.fullName ? ` · ${user.fullName}` : ''}
          </span>
        </div>
      ),
    },
    { id: 'status', header: 'Status', cell: (user) => <StatusBadge user={user} /> },
    { id: 'joined', header: 'Joined', cell: (user) => <TimeAgoCell value={user.dateJoined} /> },
    {
      id: 'login',
      header: 'Last sign-in',
      cell: (user) =>
        user.lastLogin ? (
          <TimeAgoCell value={user.lastLogin} />
        ) : (
          <span className="text-muted-foreground">Never</span>
        ),
    },
    {
      id: 'staff',
      header: 'Staff',
      cell: (user) => <UserSwitch user={user} field="is_staff" disabled={user.id === me.id} />,
    },
    {
      id: 'notebooks',
      header: 'Notebooks',
      cell: (user) => <UserSwitch user={user} field="should_see_notebook_page" />,
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'py-1.5 text-right',
      cell: (user) => <LockButton user={user} self={user.id === me.id} />,
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <SearchBox label="Search users" placeholder="Username, email or name" value={text} onChange={setText} />
      {users.isError ? (
        <ErrorState
          title="Could not load users"
          message={errorMessage(users.error)}
          onRetry={() => void users.refetch()}
        />
      ) : (
        <DataTable
          rows={users.data?.items ?? []}
          columns={columns}
          getRowId={(user) => String(user.id)}
          loading={users.isPending || (users.isPlaceholderData && users.isFetching)}
          empty={
            <EmptyState
              icon={UsersIcon}
              title={search ? `No user matches “${search}”` : 'No users yet'}
              className="border-0 py-6"
            />
          }
          total={users.data?.count ?? 0}
          page={page}
          pageSize={pageSize}
          onPageChange={setPage}
          onPageSizeChange={setPageSize}
        />
      )}
    </div>
  );
}
