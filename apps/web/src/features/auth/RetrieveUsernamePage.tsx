import { Link } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { useUsernameRetrieveMutation } from '@/data/auth/username-retrieve-mutation';
import { EmailRequestForm } from '@/features/auth/email-request-form';
import { supportMailto } from '@/lib/links';
import { paths } from '@/lib/paths';

/** Retrieve username: mails the username of the account with this email. */
export function RetrieveUsernamePage() {
  const retrieve = useUsernameRetrieveMutation();
  return (
    <AuthCard
      title="Forgot your username?"
      description={
        retrieve.isSuccess ? undefined : "Enter your account's email and we'll send you your username."
      }
      footer={
        <Link to={`${paths.login}?open=true`} className="hover:text-foreground">
          Back to sign in
        </Link>
      }
    >
      {retrieve.isSuccess ? (
        <div role="status" className="grid gap-2 text-sm">
          <p>An email with your username has been sent.</p>
          <p className="text-muted-foreground">
            Didn&apos;t get it?{' '}
            <a href={supportMailto()} className="text-primary hover:underline">
              Contact support
            </a>
          </p>
        </div>
      ) : (
        <EmailRequestForm mutation={retrieve} submitLabel="Send my username" />
      )}
    </AuthCard>
  );
}
