import { CircleCheckIcon, LoaderCircleIcon } from 'lucide-react';
import * as React from 'react';
import { Link, useParams, useSearchParams } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { FormAlert } from '@/components/form-alert';
import { useEmailVerifyMutation } from '@/data/auth/email-verify-mutation';
import { verificationFailure } from '@/features/auth/messages';
import { useRedirectAfter } from '@/features/auth/use-redirect-after';
import { paths, RETURN_TO_PARAM } from '@/lib/paths';
import { returnToParam } from '@/lib/return-to';

export const VERIFIED_REDIRECT_MS = 3_000;

/** Activates the account with the key of the emailed link; then root with open=true after 3 s. */
export function VerifyEmailConfirmPage() {
  const { key = '' } = useParams();
  const [params] = useSearchParams();
  const verify = useEmailVerifyMutation();
  const started = React.useRef(false);

  React.useEffect(() => {
    if (started.current) return;
    started.current = true;
    verify.mutate(key);
  }, [key, verify]);

  const next = new URLSearchParams({ open: 'true' });
  const returnTo = returnToParam(params);
  if (returnTo) next.set(RETURN_TO_PARAM, returnTo);
  useRedirectAfter(verify.isSuccess, `${paths.root}?${next}`, VERIFIED_REDIRECT_MS);

  if (verify.isSuccess) {
    return (
      <AuthCard title="Email Verified">
        <div role="status" className="flex items-start gap-3 text-sm">
          <CircleCheckIcon className="text-success size-5 shrink-0" aria-hidden="true" />
          <p className="text-muted-foreground">Your account is active. Taking you to sign in…</p>
        </div>
      </AuthCard>
    );
  }
  if (verify.isError) {
    return (
      <AuthCard
        title="Verification failed"
        footer={
          <Link to={paths.verifyEmailResend} className="hover:text-foreground">
            Resend the verification email
          </Link>
        }
      >
        <FormAlert>{verificationFailure(verify.error)}</FormAlert>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Verifying your email">
      <div role="status" className="text-muted-foreground flex items-center gap-2 text-sm">
        <LoaderCircleIcon className="size-4 animate-spin" aria-hidden="true" />
        One moment…
      </div>
    </AuthCard>
  );
}
