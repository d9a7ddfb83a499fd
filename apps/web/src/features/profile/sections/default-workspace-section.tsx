import { FormAlert } from '@/components/form-alert';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useUserUpdateMutation } from '@/data/user/user-update-mutation';
import { SectionCard } from '@/features/profile/sections/section-card';
import { isApiError } from '@/lib/api/errors';
import { useSignedIn } from '@/lib/signed-in';

/** An invalid account ('User ...') or a 409 shows nothing; anything else the unknown error. */
function defaultAccountError(error: unknown): string | null {
  if (!error) return null;
  if (isApiError(error)) {
    if (error.kind === 'conflict') return null;
    if (error.fieldErrors('default_account').some((message) => message.startsWith('User'))) return null;
  }
  return 'An unknown error occurred.';
}

/** Default Workspace: chosen among the user's own memberships. */
export function DefaultWorkspaceSection() {
  const { user, workspaceMemberships } = useSignedIn();
  const update = useUserUpdateMutation();
  const current = user.defaultAccount?.id;

  return (
    <SectionCard
      id="default-workspace"
      title="Default Workspace"
      description="Where your clusters and software environments go unless you pick another workspace."
    >
      <div className="grid max-w-sm gap-3">
        <Select
          value={current !== undefined ? String(current) : undefined}
          disabled={update.isPending}
          onValueChange={(value) => update.mutate({ default_account: Number(value) })}
        >
          <SelectTrigger aria-label="Default workspace" className="w-full">
            <SelectValue placeholder="Choose a workspace" />
          </SelectTrigger>
          <SelectContent>
            {workspaceMemberships.map(({ account }) => (
              <SelectItem key={account.id} value={String(account.id)}>
                {account.name}
                <span className="text-muted-foreground text-xs">{account.organization.name}</span>
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        <FormAlert>{update.isError ? defaultAccountError(update.error) : null}</FormAlert>
      </div>
    </SectionCard>
  );
}
