import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { IdentitiesSection } from '@/features/profile/sections/identities-section';
import { reply, stubApi } from '@/test/api-stub';
import { renderPage } from '@/test/render';

const identity = (id: number, provider: string, name: string) => ({
  id,
  provider,
  name,
  email: 'ada@corp.example',
  created: '2026-11-01T00:00:00Z',
  last_used: null,
});

describe('Sign-in methods', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists linked identities and says why the last one cannot be unlinked', async () => {
    const api = stubApi({
      'GET /api/v2/user/identities': [identity(1, 'sso', 'Acme Okta')],
      'DELETE /api/v2/user/identities/1': reply(400, {
        non_field_errors: ['This is your only way to sign in.'],
        detail: 'This is your only way to sign in.',
      }),
    });
    renderPage(<IdentitiesSection />);
    expect(await screen.findByRole('heading', { name: 'Sign-in methods' })).toBeVisible();
    expect(screen.getByText('ada@corp.example')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Unlink Acme Okta' }));
    expect(await screen.findByText(/This is your only way to sign in/)).toBeVisible();
    expect(api.callsTo('DELETE', '/api/v2/user/identities/1')).toHaveLength(1);
  });

  it('shows nothing for a user with no linked identity', async () => {
    const api = stubApi({ 'GET /api/v2/user/identities': [] });
    renderPage(<IdentitiesSection />);
    await waitFor(() => expect(api.callsTo('GET', '/api/v2/user/identities')).toHaveLength(1));
    expect(screen.queryByRole('heading', { name: 'Sign-in methods' })).toBeNull();
  });
});
