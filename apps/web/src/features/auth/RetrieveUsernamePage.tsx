import { Link } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { ContactSupportLink } from '@/components/contact-support-link';
import { MailKeptNote } from '@/components/mail-kept-note';
import { useUsernameRetrieveMutation } from '@/data/auth/username-retrieve-mutation';
import { EmailRequestForm } from '@/features/auth/email-request-form';
import { useLinks } from '@/hooks/use-links';
import { useMailKeptInLog } from '@/hooks/use-mail-delivery';
import { paths } from '@/lib/paths';

/** Retrieve username: mails the username of the account with this email. */
export function RetrieveUsernamePage() {
  const retrieve = useUsernameRetrieveMutation();
  const kept = useMailKeptInLog();
  const { supportMailto } = useLinks();
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
          {kept ? (
            <MailKeptNote what="the email with your username" />
          ) : (
            <p>An email with your username has been sent.</p>
          )}
          {supportMailto && !kept ? (
            <p className="text-muted-foreground">
              Didn&apos;t get it? <ContactSupportLink>Contact support</ContactSupportLink>
            </p>
          ) : null}
        </div>
      ) : (
        <EmailRequestForm mutation={retrieve} submitLabel="Send my username" />
      )}
    </AuthCard>
  );
}
