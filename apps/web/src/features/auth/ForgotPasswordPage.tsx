import { Link } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { ContactSupportLink } from '@/components/contact-support-link';
import { MailKeptNote } from '@/components/mail-kept-note';
import { usePasswordResetMutation } from '@/data/auth/password-reset-mutation';
import { EmailRequestForm } from '@/features/auth/email-request-form';
import { useLinks } from '@/hooks/use-links';
import { useMailKeptInLog } from '@/hooks/use-mail-delivery';
import { paths } from '@/lib/paths';

/** Forgot password ("Reset Password"): mails a reset link. */
export function ForgotPasswordPage() {
  const reset = usePasswordResetMutation();
  const kept = useMailKeptInLog();
  const { supportMailto } = useLinks();
  return (
    <AuthCard
      title="Reset Password"
      description={
        reset.isSuccess ? undefined : "Enter your account's email and we'll send you a reset link."
      }
      footer={
        <Link to={`${paths.login}?open=true`} className="hover:text-foreground">
          Back to sign in
        </Link>
      }
    >
      {reset.isSuccess ? (
        <div role="status" className="grid gap-2 text-sm">
          {kept ? (
            <MailKeptNote what="the email with a link to reset your password" />
          ) : (
            <p>An email with a link to reset your password has been sent.</p>
          )}
          {supportMailto && !kept ? (
            <p className="text-muted-foreground">
              If it doesn&apos;t arrive within a few minutes,{' '}
              <ContactSupportLink>contact support</ContactSupportLink>.
            </p>
          ) : null}
        </div>
      ) : (
        <EmailRequestForm mutation={reset} submitLabel="Send reset link" />
      )}
    </AuthCard>
  );
}
