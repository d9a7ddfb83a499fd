import { Link } from 'react-router';

import { AuthCard } from '@/components/auth-card';
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
        <p role="status" className="text-sm">
          {resend.data.detail}
        </p>
      ) : (
        <EmailRequestForm mutation={resend} submitLabel="Resend email" />
      )}
    </AuthCard>
  );
}
