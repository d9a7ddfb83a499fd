import { fireEvent, screen, waitFor } from '@testing-library/react';
import * as React from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { WelcomeDialog } from '@/app/shell/welcome-dialog';
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog';
import { stubApi } from '@/test/api-stub';
import { deploymentAnswer } from '@/test/deployment';
import { renderSignedIn } from '@/test/signed-in';

/** A page that opens its own dialog on arrival, as the Profile page does with ?createTokenDialog=true. */
function PageWithDialog() {
  const [open, setOpen] = React.useState(true);
  return (
    <>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogTitle>Create API token</DialogTitle>
          <button type="button" onClick={() => setOpen(false)}>
            Done
          </button>
        </DialogContent>
      </Dialog>
      <WelcomeDialog />
    </>
  );
}

describe('the welcome dialog', () => {
  afterEach(() => vi.restoreAllMocks());

  it("waits while the page's own dialog is open, then asks: one modal at a time", async () => {
    const api = stubApi({
      'GET /api/v2/deployment': deploymentAnswer({ hostedService: true }),
      'GET /api/v2/interactions/flag': [{ name: 'user-source-dialog', completed: false }],
      'PUT /api/v2/interactions/flag/user-source-dialog': { name: 'user-source-dialog', completed: true },
    });
    renderSignedIn(<PageWithDialog />);
    await waitFor(() => expect(api.callsTo('GET', '/api/v2/interactions/flag')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Create API token' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Welcome to Cumulus' })).not.toBeInTheDocument();

    // The page's dialog works (it is the only one), and once closed the welcome dialog comes.
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByRole('dialog', { name: 'Welcome to Cumulus' })).toBeInTheDocument();
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Skip' }));
    await waitFor(() =>
      expect(api.callsTo('PUT', '/api/v2/interactions/flag/user-source-dialog')[0]?.body).toEqual({
        completed: true,
      }),
    );
  });

  it('opens at once when the page has no dialog of its own', async () => {
    stubApi({
      'GET /api/v2/deployment': deploymentAnswer({ hostedService: true }),
      'GET /api/v2/interactions/flag': [{ name: 'user-source-dialog', completed: false }],
    });
    renderSignedIn(<WelcomeDialog />);
    expect(await screen.findByRole('dialog', { name: 'Welcome to Cumulus' })).toBeInTheDocument();
  });

  it('does not greet a new user of a self-hosted install with "How did you hear about Cumulus?"', async () => {
    const api = stubApi({
      'GET /api/v2/deployment': deploymentAnswer(),
      'GET /api/v2/interactions/flag': [{ name: 'user-source-dialog', completed: false }],
    });
    renderSignedIn(<WelcomeDialog />);
    await waitFor(() => expect(api.callsTo('GET', '/api/v2/deployment')).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText('How did you hear about Cumulus?')).not.toBeInTheDocument();
  });
});
