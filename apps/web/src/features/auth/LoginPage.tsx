import { KeyRoundIcon } from 'lucide-react';
import { Link, Navigate, useLocation, useNavigate, useSearchParams } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { GitHubIcon, GoogleIcon } from '@/components/brand-icons';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { MailKeptNote } from '@/components/mail-kept-note';
import { carriedSearch } from '@/components/public-header';
import { SubmitButton } from '@/components/submit-button';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { useLoginMutation } from '@/data/auth/login-mutation';
import { type Deployment, useDeploymentQuery } from '@/data/deployment/deployment-query';
import { AcceptInvitePanel } from '@/features/auth/AcceptInvitePanel';
import { loginFailure } from '@/features/auth/messages';
import { notConfiguredMessage } from '@/features/auth/providers';
import { loginSchema } from '@/features/auth/schemas';
import { useLinks } from '@/hooks/use-links';
import { useSession } from '@/lib/api/session';
import { useZodForm } from '@/lib/forms';
import { paths } from '@/lib/paths';
import { returnToParam, storeReturnTo, takeReturnTo } from '@/lib/return-to';

type Provider = Deployment['signInProviders'][number];
const PROVIDER_ICONS = {
  google: <GoogleIcon className="size-4" />,
  github: <GitHubIcon className="size-4" />,
  sso: <KeyRoundIcon aria-hidden="true" />,
} as const;

/**
 * Login: username-or-email and password, or a sign-in provider: a
 * "Continue with ..." button for each provider this server has configured, none otherwise.
 */
export function LoginPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const { token } = useSession();
  const login = useLoginMutation();
  const providers = useDeploymentQuery().data?.signInProviders ?? [];
  const { termsUrl, supportEmail } = useLinks();
  // The server's login path sends a sign-in back here when the provider is not configured, or
  // could not be reached (`provider` says which).
  const provider = params.get('provider') ?? 'sso';
  const providerName =
    providers.find((p) => p.id === provider)?.name ??
    { google: 'Google', github: 'GitHub' }[provider] ??
    'SSO';
  const notice =
    params.get('sso') === 'not-configured'
      ? notConfiguredMessage(providerName)
      : params.get('sso') === 'unreachable'
        ? `Cumulus could not reach ${providerName}. Try again in a moment.`
        : params.get('sso') === 'no-connection'
          ? `No organization has set up single sign-on for ${params.get('email') ?? 'that address'}. Sign in with your password, or ask your organization admin.`
          : null;
  const form = useZodForm(loginSchema, {
    mode: 'onChange',
    defaultValues: { usernameOrEmail: '', password: '' },
  });
  const { errors, isValid } = form.formState;

  // Signed in already and opened from an invitation link: join as this account, or sign out.
  const invite = params.get('invite');
  if (token && invite && !login.isPending && !login.isSuccess) return <AcceptInvitePanel token={invite} />;
  // Signed in already (another tab, or the back button): go where the sign-in would have gone.
  if (token && !login.isPending && !login.isSuccess) {
    return <Navigate to={returnToParam(params) ?? paths.root} replace />;
  }

  const onSubmit = form.handleSubmit((values) =>
    login.mutate(
      // An invitation link carries the invitation's token: signing in through it accepts it.
      { ...values, invite: params.get('invite') },
      { onSuccess: () => navigate(takeReturnTo(params), { replace: true }) },
    ),
  );

  // The typed work email (if it is one) names the organization whose own connection signs it in.
  function ssoWithEmail() {
    storeReturnTo(returnToParam(params));
    const typed = form.getValues('usernameOrEmail').trim();
    navigate(typed.includes('@') ? `${paths.workos}?email=${encodeURIComponent(typed)}` : paths.workos);
  }

  function continueWith(provider: Provider) {
    storeReturnTo(returnToParam(params));
    // SSO goes through the console's /workos route, which sends the browser to the server's login path.
    if (provider.id === 'sso') ssoWithEmail();
    else window.location.assign(provider.authorizeUrl);
  }

  const failure = login.isError ? loginFailure(login.error, supportEmail) : null;

  return (
    <AuthCard
      title="Sign in to Cumulus"
      pageTitle="Login"
      description="Welcome back. Sign in to manage your clusters."
      footer={
        termsUrl ? (
          <p className="text-xs">
            By signing in you agree to the{' '}
            <a href={termsUrl} target="_blank" rel="noreferrer" className="hover:text-foreground underline">
              terms of service
            </a>
            .
          </p>
        ) : null
      }
    >
      {providers.length > 0 ? (
        <>
          <div className="grid gap-2">
            {providers.map((provider) => (
              <Button
                key={provider.id}
                variant="outline"
                type="button"
                onClick={() => continueWith(provider)}
              >
                {PROVIDER_ICONS[provider.id]}
                Continue with {provider.name}
              </Button>
            ))}
          </div>
          <div className="text-muted-foreground flex items-center gap-3 text-xs uppercase">
            <span className="bg-border h-px flex-1" />
            or
            <span className="bg-border h-px flex-1" />
          </div>
        </>
      ) : null}
      {notice ? (
        <Alert>
          <AlertDescription>{notice}</AlertDescription>
        </Alert>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        <FormAlert>
          {failure ? (
            <>
              {failure.message}
              {failure.ssoLink ? (
                <>
                  {' '}
                  <button type="button" className="underline" onClick={ssoWithEmail}>
                    Continue with SSO
                  </button>
                </>
              ) : null}
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
        {/* The spec's words say to check one's email; with no mail server, where it really is. */}
        {failure?.resendLink ? <MailKeptNote what="your confirmation email" /> : null}
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
      {providers.some((p) => p.id === 'sso') ? null : (
        <p className="text-muted-foreground text-center text-sm">
          Your organization uses single sign-on?{' '}
          <button type="button" className="text-primary hover:underline" onClick={ssoWithEmail}>
            Use SSO with the work email above
          </button>
        </p>
      )}
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
