import { useQueryClient } from '@tanstack/react-query';
import * as React from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';

import { AuthCard } from '@/components/auth-card';
import { FormAlert } from '@/components/form-alert';
import { FormField } from '@/components/form-field';
import { carriedSearch } from '@/components/public-header';
import { SubmitButton } from '@/components/submit-button';
import { Input } from '@/components/ui/input';
import { logout } from '@/data/auth/logout-mutation';
import { useRegisterMutation } from '@/data/auth/register-mutation';
import { useInvitePreviewQuery } from '@/data/organizations/invite-preview-query';
import { useCurrentUserQuery } from '@/data/user/current-user-query';
import { type SignupValues, signupSchema } from '@/features/auth/schemas';
import { useLinks } from '@/hooks/use-links';
import { session, useSession } from '@/lib/api/session';
import { showServerErrors, useZodForm } from '@/lib/forms';
import { paths } from '@/lib/paths';

const SERVER_FIELDS = ['fullName', 'preferredName', 'username', 'email', 'password1', 'password2'] as const;

/**
 * Someone else still signed in in this browser (an inviter opening the link they mailed, to try
 * it): the new account's person must not land in that account's console.
 */
function SignedInElsewhereNote() {
  const me = useCurrentUserQuery();
  const who = me.data?.username;
  return (
    <p role="status" className="bg-muted rounded-md px-3 py-2 text-sm">
      {who ? `You are signed in as ${who} in this browser.` : 'Someone is signed in in this browser.'}{' '}
      Creating an account signs {who ?? 'them'} out here, so that you sign in as yourself.
    </p>
  );
}

/** Sign-up: on success to verify-email-sent, carrying return-to. */
export function SignupPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { token } = useSession();
  const register = useRegisterMutation();
  const { bookDemoUrl } = useLinks();
  // An invitation link carries the invitation's token: signing up through it accepts it.
  const inviteToken = params.get('invite');
  const preview = useInvitePreviewQuery(inviteToken);
  const invitation = preview.data;
  const form = useZodForm(signupSchema, {
    mode: 'onTouched',
    defaultValues: {
      fullName: '',
      preferredName: '',
      username: '',
      // An invitation link carries the invited address.
      email: params.get('email') ?? '',
      password1: '',
      password2: '',
    },
  });
  const { errors } = form.formState;
  // The server's general message, or a field error no field here shows (above the form).
  const [failure, setFailure] = React.useState<string | null>(null);

  const onSubmit = form.handleSubmit((values: SignupValues) => {
    setFailure(null);
    register.mutate(
      {
        full_name: values.fullName,
        preferred_name: values.preferredName || null,
        username: values.username,
        email: values.email,
        password1: values.password1,
        password2: values.password2,
        invite: inviteToken,
      },
      {
        onSuccess: async ({ detail }) => {
          // The new account is someone else's than the one signed in here: end that session first,
          // or "/" would open the other account's console (issue 37: the invitee seemed to have
          // only the inviter's workspace).
          if (token) {
            await logout();
            session.clear({ loggedOut: true });
            queryClient.clear();
          }
          if (detail === 'E-mail already verified.')
            return navigate(`${paths.login}${carriedSearch(location.search)}`);
          navigate(`${paths.verifyEmailSent}${carriedSearch(location.search)}`, {
            state: { email: values.email },
          });
        },
        onError: (error) => setFailure(showServerErrors(form.setError, error, SERVER_FIELDS)),
      },
    );
  });

  return (
    <AuthCard
      title="Create your account"
      pageTitle="Sign Up"
      description="Run Dask clusters in minutes."
      footer={
        <>
          <p>
            Already have an account?{' '}
            <Link
              to={`${paths.login}${carriedSearch(location.search)}`}
              className="text-primary underline underline-offset-4"
            >
              Sign in
            </Link>
          </p>
          {bookDemoUrl ? (
            <p>
              Setting up for a team?{' '}
              <a
                href={bookDemoUrl}
                target="_blank"
                rel="noreferrer"
                className="text-primary underline underline-offset-4"
              >
                Book a demo
              </a>
            </p>
          ) : null}
        </>
      }
    >
      <form noValidate onSubmit={onSubmit} className="grid gap-4">
        {token ? <SignedInElsewhereNote /> : null}
        {invitation ? (
          <p role="status" className="bg-primary/10 rounded-md px-3 py-2 text-sm">
            {invitation.inviter ?? 'Someone'} invited you to join {invitation.organization}
            {invitation.workspaces.length > 0 ? ` (${invitation.workspaces.join(', ')})` : ''}.
          </p>
        ) : preview.isError ? (
          <p role="status" className="bg-muted rounded-md px-3 py-2 text-sm">
            This invitation link is no longer valid: it expired, or a newer invitation was mailed. Use the
            latest invitation email, or ask for a new one.
          </p>
        ) : null}
        <FormAlert>{failure}</FormAlert>
        <FormField label="Full name" error={errors.fullName?.message}>
          <Input autoComplete="name" {...form.register('fullName')} />
        </FormField>
        <FormField label="Preferred name (optional)" error={errors.preferredName?.message}>
          <Input autoComplete="nickname" {...form.register('preferredName')} />
        </FormField>
        <FormField
          label="Username"
          description="Lowercase letters, numbers, hyphens and underscores."
          error={errors.username?.message}
        >
          <Input autoComplete="username" autoCapitalize="none" {...form.register('username')} />
        </FormField>
        <FormField label="Work email" error={errors.email?.message}>
          <Input type="email" autoComplete="email" {...form.register('email')} />
        </FormField>
        <FormField label="Password" description="At least 10 characters." error={errors.password1?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('password1')} />
        </FormField>
        <FormField label="Confirm password" error={errors.password2?.message}>
          <Input type="password" autoComplete="new-password" {...form.register('password2')} />
        </FormField>
        <SubmitButton pending={register.isPending}>Create Account</SubmitButton>
      </form>
    </AuthCard>
  );
}
