import { MailCheckIcon } from 'lucide-react';
import { Link, useLocation } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { MailKeptNote } from '@/components/mail-kept-note';
import { carriedSearch } from '@/components/public-header';
import { useMailKeptInLog } from '@/hooks/use-mail-delivery';
import { paths } from '@/lib/paths';

/**
 * After sign-up: a verification email was sent (or, with no mail server, printed in the server's
 * log, which the page says); links to resend it.
 */
export function VerifyEmailSentPage() {
  const location = useLocation();
  const email = (location.state as { email?: string } | null)?.email;
  const kept = useMailKeptInLog();
  return (
    <AuthCard
      title="Check your email"
      pageTitle="Verify your email"
      footer={
        <Link to={`${paths.login}${carriedSearch(location.search)}`} className="hover:text-foreground">
          Back to sign in
        </Link>
      }
    >
      <div className="bg-primary/10 text-primary flex size-10 items-center justify-center rounded-lg">
        <MailCheckIcon className="size-5" aria-hidden="true" />
      </div>
      {kept ? (
        <MailKeptNote what={email ? `the verification email to ${email}` : 'the verification email'} />
      ) : (
        <p className="text-muted-foreground text-sm">
          We sent a verification email
          {email ? (
            <>
              {' '}
              to <span className="text-foreground">{email}</span>
            </>
          ) : null}
          . Follow the link in it to activate your account.
        </p>
      )}
      {kept ? (
        <p className="text-muted-foreground text-sm">Follow the link in it to activate your account.</p>
      ) : null}
      <p className="text-muted-foreground text-sm">
        Didn&apos;t get it?{' '}
        <Link to={paths.verifyEmailResend} className="text-primary hover:underline">
          Resend the verification email
        </Link>
      </p>
    </AuthCard>
  );
}
