import { Link } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { MailKeptNote } from '@/components/mail-kept-note';
import { useConfirmationEmailResendMutation } from '@/data/auth/confirmation-email-resend-mutation';
import { EmailRequestForm } from '@/features/auth/email-request-form';
import { paths } from '@/lib/paths';

/** Verify-email-resend: an email field; success shows the server's sent message. */
export function VerifyEmailResendPage() {
  const resend = useConfirmationEmailResendMutation();
  return (
    <AuthCard
      title="Resend verification email"
      description={resend.isSuccess ? undefined : 'Enter the email address you signed up with.'}
      footer={
        <Link to={paths.login} className="hover:text-foreground">
          Back to sign in
        </Link>
      }
    >
      {resend.isSuccess ? (
        <div role="status" className="grid gap-3 text-sm">
          <p>{resend.data.detail}</p>
          <MailKeptNote what="the verification email" />
        </div>
      ) : (
        <EmailRequestForm mutation={resend} submitLabel="Resend email" />
      )}
    </AuthCard>
  );
}
