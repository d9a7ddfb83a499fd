import { Link } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { usePasswordResetMutation } from '@/data/auth/password-reset-mutation';
import { EmailRequestForm } from '@/features/auth/email-request-form';
import { supportMailto } from '@/lib/links';
import { paths } from '@/lib/paths';

/** Forgot password ("Reset Password"): mails a reset link. */
export function ForgotPasswordPage() {
  const reset = usePasswordResetMutation();
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
          <p>An email with a link to reset your password has been sent.</p>
          <p className="text-muted-foreground">
            If it doesn&apos;t arrive within a few minutes,{' '}
            <a href={supportMailto()} className="text-primary hover:underline">
              contact support
            </a>
            .
          </p>
        </div>
      ) : (
        <EmailRequestForm mutation={reset} submitLabel="Send reset link" />
      )}
    </AuthCard>
  );
}
