import { FormAlert } from '@/components/form-alert';
import { Button } from '@/components/ui/button';
import { useIdentitiesQuery, useUnlinkIdentityMutation } from '@/data/user/identities';
import { SectionCard } from '@/features/profile/sections/section-card';
import { errorMessage, isApiError } from '@/lib/api/errors';

/** Sign-in methods: the provider identities linked to this account; each can be unlinked while another remains. */
export function IdentitiesSection() {
  const identities = useIdentitiesQuery();
  const unlink = useUnlinkIdentityMutation();
  const rows = identities.data ?? [];
  if (rows.length === 0) return null;
  return (
    <SectionCard
      id="sign-in-methods"
      title="Sign-in methods"
      description="Identity providers you can sign in with, besides your password if you have one."
    >
      <div className="grid gap-3">
        <FormAlert>
          {unlink.isError
            ? ((isApiError(unlink.error) ? unlink.error.nonFieldErrors[0] : undefined) ??
              errorMessage(unlink.error))
            : null}
        </FormAlert>
        <ul className="grid gap-2">
          {rows.map((identity) => (
            <li key={identity.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
              <span>
                <span className="font-medium">{identity.name}</span>{' '}
                <span className="text-muted-foreground">{identity.email}</span>
              </span>
              <Button
                variant="outline"
                size="sm"
                disabled={unlink.isPending}
                onClick={() => unlink.mutate(identity.id)}
              >
                Unlink {identity.name}
              </Button>
            </li>
          ))}
        </ul>
      </div>
    </SectionCard>
  );
}
