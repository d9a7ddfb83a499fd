import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { SignupPage } from '@/features/auth/SignupPage';
import { reply, stubApi } from '@/test/api-stub';
import { deploymentAnswer } from '@/test/deployment';
import { renderPage } from '@/test/render';

const TOKEN = 'a'.repeat(64);

describe('SignupPage opened from an invitation link', () => {
  afterEach(() => vi.restoreAllMocks());

  it('says who invited them, to which organization and workspaces, and fills in the invited address', async () => {
    stubApi({
      'GET /api/v2/deployment': deploymentAnswer(),
      [`GET /api/v2/users/invites/token/${TOKEN}`]: {
        organization: 'Acme Labs',
        inviter: 'Ada Lovelace',
        email: 'grace@example.com',
        workspaces: ['ml-team'],
        expiration: '2026-12-31T00:00:00+00:00',
      },
    });
    renderPage(<SignupPage />, { url: `/signup?invite=${TOKEN}&email=grace%40example.com` });
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Ada Lovelace invited you to join Acme Labs (ml-team).',
    );
    expect(screen.getByLabelText('Work email')).toHaveValue('grace@example.com');
  });

  it('says when the link no longer names an invitation (resent or expired)', async () => {
    stubApi({
      'GET /api/v2/deployment': deploymentAnswer(),
      [`GET /api/v2/users/invites/token/${TOKEN}`]: reply(404, { detail: 'Not found.' }),
    });
    renderPage(<SignupPage />, { url: `/signup?invite=${TOKEN}` });
    expect(await screen.findByRole('status')).toHaveTextContent('This invitation link is no longer valid');
  });
});
