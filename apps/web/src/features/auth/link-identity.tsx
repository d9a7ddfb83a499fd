import { CircleCheckIcon, LinkIcon, LoaderCircleIcon, MailCheckIcon } from 'lucide-react';
import { Link, useNavigate, useParams } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { FormAlert } from '@/components/form-alert';
import { Button } from '@/components/ui/button';
import { useIdentityLinkCheckQuery } from '@/data/auth/identity-link-check-query';
import {
  useConfirmIdentityLinkMutation,
  type useMailIdentityLinkMutation,
} from '@/data/auth/identity-link-mutations';
import { serverMessage } from '@/lib/api/errors';
import { paths } from '@/lib/paths';

/** The server's words for a used, expired or made-up link (link-by-email.ts). */
export const INVALID_LINK =
  'This link is not valid: it was already used, has expired, or was replaced. Start again from the login page.';
const TOKEN = /^[0-9a-f]{48}$/;

/** On the callback page when the address has an account: mail its owner a single-use link instead. */
export function EmailLinkButton({ send }: { send: ReturnType<typeof useMailIdentityLinkMutation> }) {
  return (
    <>
      <FormAlert>{send.isError ? serverMessage(send.error) : null}</FormAlert>
      <Button variant="outline" disabled={send.isPending} onClick={() => send.mutate()}>
        Email me a link to my account instead
      </Button>
    </>
  );
}

/** Once the link is mailed, the callback page says only that (the refusal above it is answered). */
export function LinkMailed({ detail }: { detail: string }) {
  return (
    <AuthCard
      title="Check your email"
      footer={
        <Link to={paths.login} className="hover:text-foreground underline-offset-4 hover:underline">
          Go back to login
        </Link>
      }
    >
      <div role="status" className="flex items-start gap-3 text-sm">
        <MailCheckIcon className="text-success size-5 shrink-0" aria-hidden="true" />
        <p className="min-w-0 [overflow-wrap:anywhere]">{detail}</p>
      </div>
    </AuthCard>
  );
}

/**
 * /link-identity/:token, the mailed link. It says what it would link; nothing happens until its
 * owner confirms (a mail scanner opening the link uses nothing); then the sign-in is linked and
 * they are signed in. A used or expired link says so at once.
 */
export function LinkIdentityPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const wellFormed = TOKEN.test(token);
  const check = useIdentityLinkCheckQuery(token, { enabled: wellFormed });
  const confirm = useConfirmIdentityLinkMutation({
    // Profile's sign-in methods show the identity just linked.
    onSuccess: ({ key }) => {
      if (key) navigate(`${paths.profile}#sign-in-methods`, { replace: true });
    },
  });
  const failed = !wellFormed ? INVALID_LINK : check.isError ? serverMessage(check.error) : null;
  const problem = failed ?? (confirm.isError ? serverMessage(confirm.error) : null);
  const toLogin = (
    <Link to={paths.login} className="hover:text-foreground underline-offset-4 hover:underline">
      Go to login
    </Link>
  );

  if (confirm.isSuccess && !confirm.data.key) {
    return (
      <AuthCard title="Sign-in linked" footer={toLogin}>
        <div role="status" className="flex items-start gap-3 text-sm">
          <CircleCheckIcon className="text-success size-5 shrink-0" aria-hidden="true" />
          <p>{confirm.data.detail}</p>
        </div>
      </AuthCard>
    );
  }
  if (problem) {
    return (
      <AuthCard title="This link cannot be used" footer={toLogin}>
        <FormAlert>{problem}</FormAlert>
      </AuthCard>
    );
  }
  if (!check.data) {
    return (
      <AuthCard title="Link a sign-in">
        <div role="status" className="text-muted-foreground flex items-center gap-2 text-sm">
          <LoaderCircleIcon className="size-4 animate-spin" aria-hidden="true" />
          One moment…
        </div>
      </AuthCard>
    );
  }
  const { name, email, username } = check.data;
  return (
    <AuthCard
      title={`Link your ${name} sign-in`}
      pageTitle="Link a sign-in"
      description={`You started signing in with ${name} using the email address of your Cumulus account.`}
      footer={toLogin}
    >
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Account</dt>
        <dd className="min-w-0 font-medium break-all">{username}</dd>
        <dt className="text-muted-foreground">Sign-in</dt>
        <dd className="min-w-0 [overflow-wrap:anywhere]">
          {/* A long address wraps after its @ rather than mid-word. */}
          {name} · {email.split('@')[0]}@<wbr />
          {email.split('@').slice(1).join('@')}
        </dd>
      </dl>
      <p className="text-muted-foreground text-sm">
        Afterwards you can sign in either way; Profile lists your sign-in methods and can unlink one.
      </p>
      <Button disabled={confirm.isPending} onClick={() => confirm.mutate(token)}>
        <LinkIcon aria-hidden="true" />
        {confirm.isPending ? 'Linking…' : 'Link and sign in'}
      </Button>
    </AuthCard>
  );
}
