import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { loginBody } from '@/data/auth/login-mutation';
import { LoginPage } from '@/features/auth/LoginPage';
import { LOGIN_MESSAGES, loginFailure, providerFailure, verificationFailure } from '@/features/auth/messages';
import { ApiError } from '@/lib/api/errors';
import { reply, stubApi } from '@/test/api-stub';
import { deploymentAnswer } from '@/test/deployment';
import { renderPage } from '@/test/render';

describe('LoginPage', () => {
  it('keeps Sign in disabled, with its tooltip, until both fields are filled', async () => {
    renderPage(<LoginPage />, { url: '/login' });
    const submit = screen.getByRole('button', { name: 'Sign in' });
    expect(submit).toBeDisabled();

    fireEvent.focus(submit.parentElement!);
    expect(await screen.findAllByText('To submit, fill out all required fields')).not.toHaveLength(0);

    fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'ada' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled());
  });

  it('says which field is required', async () => {
    renderPage(<LoginPage />, { url: '/login' });
    const username = screen.getByLabelText('Username or email');
    fireEvent.change(username, { target: { value: 'x' } });
    fireEvent.change(username, { target: { value: '' } });
    fireEvent.blur(username);
    const password = screen.getByLabelText('Password');
    fireEvent.change(password, { target: { value: 'x' } });
    fireEvent.change(password, { target: { value: '' } });

    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(await screen.findByText('Password is required')).toBeInTheDocument();
  });

  it('offers no sign-in provider the server has not configured, and no terms it has not', async () => {
    const api = stubApi({ 'GET /api/v2/deployment': deploymentAnswer() });
    renderPage(<LoginPage />, { url: '/login' });
    await waitFor(() => expect(api.callsTo('GET', '/api/v2/deployment')).toHaveLength(1));
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Continue with/ })).not.toBeInTheDocument();
    expect(screen.queryByText('or')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'terms of service' })).not.toBeInTheDocument();
  });

  it('offers each provider the server has configured, and its terms', async () => {
    stubApi({
      'GET /api/v2/deployment': deploymentAnswer({
        links: { terms_url: 'https://example.org/terms' },
        providers: [
          { id: 'github', name: 'GitHub', authorize_url: 'https://github.com/login/oauth/authorize?x=1' },
        ],
      }),
    });
    renderPage(<LoginPage />, { url: '/login' });
    expect(await screen.findByRole('button', { name: 'Continue with GitHub' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'terms of service' })).toHaveAttribute(
      'href',
      'https://example.org/terms',
    );
  });

  it('asks an unverified user to check their email, and says where it is when no mail server is configured', async () => {
    for (const mail of ['smtp', 'server-log'] as const) {
      stubApi({
        'GET /api/v2/deployment': deploymentAnswer({ mail }),
        'POST /api/v1/auth/login/': reply(400, { non_field_errors: ['E-mail is not verified.'] }),
      });
      const view = renderPage(<LoginPage />, { url: '/login' });
      fireEvent.change(screen.getByLabelText('Username or email'), { target: { value: 'ada' } });
      fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'Sturdy-passphrase-42' } });
      await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled());
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
      expect(await screen.findByText(LOGIN_MESSAGES.notVerified, { exact: false })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Resend the confirmation email' })).toBeInTheDocument();
      const note = screen.queryByText(
        /^This server has no mail server configured, so your confirmation email was not sent: it is printed, with its link, in the server’s log/,
      );
      if (mail === 'smtp') expect(note).not.toBeInTheDocument();
      else expect(note).toBeInTheDocument();
      view.unmount();
    }
  });

  it('says SSO is not configured when the SSO route sent the browser back', () => {
    renderPage(<LoginPage />, { url: '/login?sso=not-configured' });
    expect(screen.getByText('Sign-in with SSO is not configured on this server.')).toBeInTheDocument();
  });
});

describe('login answers (section 8)', () => {
  it('sends an entry with an at-sign as email, else as username', () => {
    expect(loginBody(' ada@example.com ', 'p')).toEqual({ email: 'ada@example.com', password: 'p' });
    expect(loginBody('ada', 'p')).toEqual({ username: 'ada', password: 'p' });
  });

  it('maps each server answer to its message', () => {
    const locked =
      'Account locked: too many login attempts. Contact help@example.org to unlock your account.';
    expect(
      loginFailure(ApiError.fromResponse(429, { detail: 'Account locked' }), 'help@example.org').message,
    ).toBe(locked);
    expect(loginFailure(ApiError.fromResponse(403, {}), 'help@example.org').message).toBe(locked);
    // No support address configured: nobody is sent to an address that leads nowhere.
    expect(loginFailure(ApiError.fromResponse(403, {})).message).toBe(
      'Account locked: too many login attempts. Contact the administrator of this Cumulus server to unlock your account.',
    );
    expect(
      loginFailure(ApiError.fromResponse(400, { non_field_errors: ['E-mail is not verified.'] })),
    ).toEqual({
      message:
        'We need to confirm your email address. Please check your email or request another confirmation email.',
      resendLink: true,
    });
    expect(
      loginFailure(
        ApiError.fromResponse(400, { non_field_errors: ['Unable to log in with provided credentials.'] }),
      ).message,
    ).toBe('We were unable to log you in with those credentials.');
    expect(loginFailure(ApiError.fromResponse(401, { detail: 'SSO required' })).message).toBe(
      'SSO is required for this user.',
    );
    expect(loginFailure(ApiError.fromFailure(new TypeError('down'))).message).toBe(LOGIN_MESSAGES.other);
  });
});

describe('provider and verification answers (section 8)', () => {
  const nonField = (message: string) => ApiError.fromResponse(400, { non_field_errors: [message] });

  it('maps the OAuth callback failures', () => {
    expect(
      providerFailure(nonField('User is already registered with this e-mail address.'), 'GitHub').message,
    ).toBe(
      'You already have an account for the email associated with your GitHub account, please use that login instead. Contact us if you need more help logging in.',
    );
    expect(
      providerFailure(nonField('User is already registered with this username.'), 'Google').message,
    ).toBe('This username is already in use by another account.');
    expect(
      providerFailure(nonField('ada@example.com is not allowed to register'), 'Google', 'help@example.org')
        .message,
    ).toBe(
      'Free tier sign up is currently disabled. You do not currently have permission to enter the site. You can request access at help@example.org',
    );
    expect(providerFailure(ApiError.fromResponse(401, { detail: 'SSO required' }), 'GitHub')).toEqual({
      message: 'SSO is required for this user.',
      ssoLink: true,
    });
    expect(
      providerFailure(nonField('Sign-in with GitHub is not configured on this server.'), 'GitHub').message,
    ).toBe('There was an error logging in with GitHub.');
  });

  it('maps the verification failures', () => {
    expect(verificationFailure(ApiError.fromResponse(404, { detail: 'Not found.', code: 'NOT_FOUND' }))).toBe(
      'Invalid activation key provided. If you believe this is in error, please get in touch with us.',
    );
    expect(verificationFailure(ApiError.fromFailure(new TypeError('down')))).toBe(
      'Something went wrong, please try again.',
    );
  });
});
