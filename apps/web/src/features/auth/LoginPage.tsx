import { KeyRoundIcon } from 'lucide-react';
import * as React from 'react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { GitHubIcon, GoogleIcon } from '@/components/brand-icons';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { carriedSearch } from '@/components/public-header';
import { SubmitButton } from '@/components/submit-button';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useLoginMutation } from '@/data/auth/login-mutation';
import { loginFailure } from '@/features/auth/messages';
import { notConfiguredMessage, OAUTH_PROVIDERS, type OAuthProviderId } from '@/features/auth/providers';
import { loginSchema } from '@/features/auth/schemas';
import { useSession } from '@/lib/api/session';
import { useZodForm } from '@/lib/forms';
import { TERMS_URL } from '@/lib/links';
import { paths } from '@/lib/paths';
import { returnToParam, storeReturnTo, takeReturnTo } from '@/lib/return-to';

/** Login (spec/console.md section 2): username-or-email and password, or a sign-in provider. */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = useSession();
  const login = useLoginMutation();
  const [notice, setNotice] = React.useState<string | null>(
    params.get('sso') === 'not-configured' ? notConfiguredMessage('SSO') : null,
  );
  const form = useZodForm(loginSchema, {
    mode: 'onChange',
    defaultValues: { usernameOrEmail: '', password: '' },
  });
  const { errors, isValid } = form.formState;

  // Signed in already (another tab, or the back button): go where the sign-in would have gone.
  if (token && !login.isPending && !login.isSuccess) {
    return <Navigate to={returnToParam(params) ?? paths.root} replace />;
  }

  const onSubmit = form.handleSubmit((values) =>
    login.mutate(values, { onSuccess: () => navigate(takeReturnTo(params), { replace: true }) }),
  );

  function continueWith(provider: OAuthProviderId) {
    const { name, authorizeUrl } = OAUTH_PROVIDERS[provider];
    if (!authorizeUrl) return setNotice(notConfiguredMessage(name));
    storeReturnTo(returnToParam(params));
    window.location.assign(authorizeUrl);
  }

  const failure = login.isError ? loginFailure(login.error) : null;

  return (
    <AuthCard
      title="Sign in to Cumulus"
      pageTitle="Login"
      description="Welcome back. Sign in to manage your clusters."
      footer={
        <p className="text-xs">
          By signing in you agree to the{' '}
          <a href={TERMS_URL} target="_blank" rel="noreferrer" className="hover:text-foreground underline">
            terms of service
          </a>
          .
        </p>
      }
    >
      <div className="grid gap-2">
        <Button variant="outline" type="button" onClick={() => continueWith('google')}>
          <GoogleIcon className="size-4" />
          Continue with Google
        </Button>
        <Button variant="outline" type="button" onClick={() => continueWith('github')}>
          <GitHubIcon className="size-4" />
          Continue with GitHub
        </Button>
        <Button
          variant="outline"
          type="button"
          onClick={() => {
            storeReturnTo(returnToParam(params));
            navigate(paths.workos);
          }}
        >
          <KeyRoundIcon aria-hidden="true" />
          Continue with SSO
        </Button>
      </div>
      {notice ? (
        <Alert>
          <AlertDescription>{notice}</AlertDescription>
        </Alert>
      ) : null}
      <div className="text-muted-foreground flex items-center gap-3 text-xs uppercase">
        <span className="bg-border h-px flex-1" />
        or
        <span className="bg-border h-px flex-1" />
      </div>
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormAlert>
          {failure ? (
            <>
              {failure.message}
              {failure.resendLink ? (
                <>
                  {' '}
                  <Link to={paths.verifyEmailResend} className="underline">
                    Resend the confirmation email
                  </Link>
                </>
              ) : null}
            </>
          ) : null}
        </FormAlert>
        <FormField label="Username or email" error={errors.usernameOrEmail?.message}>
          <Input
            autoComplete="username"
            autoFocus={params.get('open') === 'true'}
            {...form.register('usernameOrEmail')}
          />
        </FormField>
        <FormField label="Password" error={errors.password?.message}>
          <Input type="password" autoComplete="current-password" {...form.register('password')} />
        </FormField>
        <div className="-mt-2 flex justify-between text-xs">
          <Link to={paths.forgotPassword} className="text-muted-foreground hover:text-foreground">
            Forgot password?
          </Link>
          <Link to={paths.retrieveUsername} className="text-muted-foreground hover:text-foreground">
            Forgot username?
          </Link>
        </div>
        <SubmitButton valid={isValid} pending={login.isPending}>
          Sign in
        </SubmitButton>
      </form>
      <p className="text-muted-foreground text-center text-sm">
        New to Cumulus?{' '}
        <Link
          to={`${paths.signup}${carriedSearch(location.search)}`}
          className="text-primary hover:underline"
        >
          Create an account
        </Link>
      </p>
    </AuthCard>
  );
}
