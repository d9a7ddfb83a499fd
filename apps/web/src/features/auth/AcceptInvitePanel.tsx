import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { FormAlert } from '@/components/form-alert';
import { Button } from '@/components/ui/button';
import { logout } from '@/data/auth/logout-mutation';
import { useInviteAcceptMutation } from '@/data/organizations/invite-accept-mutation';
import { useInvitePreviewQuery } from '@/data/organizations/invite-preview-query';
import { useCurrentUserQuery } from '@/data/user/current-user-query';
import { errorMessage } from '@/lib/api/errors';
import { session } from '@/lib/api/session';
import { paths } from '@/lib/paths';

/**
 * An invitation link opened by someone already signed in: they choose to join as themselves (as
 * signing in through the link would), or to sign out and sign in as the person invited. Sending
 * them on to the console without a word would leave the invitation pending.
 */
export function AcceptInvitePanel({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useCurrentUserQuery();
  const preview = useInvitePreviewQuery(token);
  const accept = useInviteAcceptMutation();
  const invitation = preview.data;
  const who = me.data?.username;

  async function signInAsSomeoneElse() {
    await logout();
    session.clear({ loggedOut: true });
    queryClient.clear();
  }

  return (
    <AuthCard
      title="Join your team"
      pageTitle="Accept invitation"
      description="An invitation link, opened while signed in."
    >
      {preview.isPending ? (
        <p role="status" className="text-muted-foreground text-sm">
          Reading the invitation…
        </p>
      ) : !invitation ? (
        <div className="grid min-w-0 gap-3">
          <p role="status" className="bg-muted rounded-md px-3 py-2 text-sm">
            This invitation link is no longer valid: it expired, was accepted, or a newer invitation was
            mailed. Use the latest invitation email, or ask for a new one.
          </p>
          <Button asChild variant="outline">
            <Link to={paths.root}>Go to the console</Link>
          </Button>
        </div>
      ) : (
        <div className="grid min-w-0 gap-4 [overflow-wrap:anywhere]">
          <p role="status" className="bg-primary/10 rounded-md px-3 py-2 text-sm">
            {invitation.inviter ?? 'Someone'} invited {invitation.email} to join {invitation.organization}
            {invitation.workspaces.length > 0 ? ` (${invitation.workspaces.join(', ')})` : ''}.
          </p>
          <p className="text-sm">
            {who ? `You are signed in as ${who}.` : 'You are signed in.'} Accept to join as{' '}
            {who ?? 'this account'}, or sign out to sign in as someone else.
          </p>
          <FormAlert>{accept.isError ? errorMessage(accept.error) : null}</FormAlert>
          <Button
            disabled={accept.isPending}
            onClick={() =>
              accept.mutate({ token }, { onSuccess: () => navigate(paths.team, { replace: true }) })
            }
          >
            {accept.isPending ? 'Accepting…' : `Accept as ${who ?? 'me'}`}
          </Button>
          <Button variant="outline" className="h-auto whitespace-normal" onClick={signInAsSomeoneElse}>
            Sign out and sign in as someone else
          </Button>
        </div>
      )}
    </AuthCard>
  );
}
