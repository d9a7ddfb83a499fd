import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { VerifyEmailSentPage } from '@/features/auth/VerifyEmailSentPage';
import { stubApi } from '@/test/api-stub';
import { deploymentAnswer } from '@/test/deployment';
import { renderPage } from '@/test/render';

async function open() {
  const view = renderPage(<VerifyEmailSentPage />, { url: '/verify-email-sent' });
  // Sign-up navigates here with the address in the location's state.
  await act(() => view.router.navigate('/verify-email-sent', { state: { email: 'ada@example.com' } }));
  return view;
}

describe('VerifyEmailSentPage', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says the email was sent when the server has a mail server', async () => {
    stubApi({ 'GET /api/v2/deployment': deploymentAnswer({ mail: 'smtp' }) });
    await open();
    expect(await screen.findByText(/We sent a verification email/)).toHaveTextContent(
      'We sent a verification email to ada@example.com. Follow the link in it to activate your account.',
    );
    expect(screen.queryByText('No email was sent')).not.toBeInTheDocument();
  });

  it('says where the email went when the server has no mail server: its log', async () => {
    stubApi({ 'GET /api/v2/deployment': deploymentAnswer({ mail: 'server-log' }) });
    await open();
    expect(await screen.findByText('No email was sent')).toBeInTheDocument();
    expect(
      screen.getByText(
        'This server has no mail server configured, so the verification email to ada@example.com was not sent: it is printed, with its link, in the server’s log (the terminal where Cumulus was started); staff can also read it on the Staff page.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/We sent a verification email/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Resend the verification email' })).toBeInTheDocument();
  });
});
