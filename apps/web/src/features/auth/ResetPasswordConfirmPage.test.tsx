import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ResetPasswordConfirmPage } from '@/features/auth/ResetPasswordConfirmPage';
import { renderPage } from '@/test/render';

function answer(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );
}

const route = { url: '/reset-password/key/MQ/abc', path: '/reset-password/key/:uid/:token' };

describe('ResetPasswordConfirmPage', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('checks both fields on blur with the spec messages', async () => {
    renderPage(<ResetPasswordConfirmPage />, route);
    const first = screen.getByLabelText('New password');
    const second = screen.getByLabelText('Confirm new password');
    fireEvent.blur(first);
    expect(await screen.findByText('password is required')).toBeInTheDocument();
    fireEvent.change(first, { target: { value: 'Another-passphrase-7' } });
    fireEvent.change(second, { target: { value: 'Different-passphrase-8' } });
    fireEvent.blur(second);
    expect(await screen.findByText('passwords must match')).toBeInTheDocument();
  });

  it('shows the server field errors on the fields, joined with commas', async () => {
    const fetch = answer(400, {
      new_password1: ['This password is too common.', 'This password is entirely numeric.'],
    });
    renderPage(<ResetPasswordConfirmPage />, route);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: '1234567890' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: '1234567890' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));

    expect(
      await screen.findByText('This password is too common., This password is entirely numeric.'),
    ).toBeInTheDocument();
    const request = fetch.mock.calls[0]?.[0] as Request;
    expect(await request.json()).toEqual({
      uid: 'MQ',
      token: 'abc',
      new_password1: '1234567890',
      new_password2: '1234567890',
    });
  });

  it('replaces the form under Reset Email when the link is not valid', async () => {
    answer(400, { token: ['Invalid value'] });
    renderPage(<ResetPasswordConfirmPage />, route);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'Another-passphrase-7' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), {
      target: { value: 'Another-passphrase-7' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));

    await waitFor(() => expect(screen.getByText('Reset Email')).toBeInTheDocument());
    expect(
      screen.getByText(
        'Invalid token provided. Please try again. If you believe this is in error, please get in touch with us.',
      ),
    ).toBeInTheDocument();
  });
});
