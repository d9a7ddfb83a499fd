import { describe, expect, it } from 'vitest';

import { uniqueName } from './harness/api';
import { seedEveryPage, signedInScreens } from './harness/every-page';
import { expectNoConsoleErrors, signIn } from './harness/journeys';
import { actionsOutOfView, overflowOf } from './harness/layout';
import { consoleSuite } from './harness/suite';

const STAFF_EMAIL = `${uniqueName('phone-staff')}@example.com`;
const suite = consoleSuite({ env: { CUMULUS_STAFF_EMAILS: STAFF_EMAIL } });

describe('every signed-in page', () => {
  it('fits a 390 px phone without sideways scrolling, and shows at 1280 px', async () => {
    const seed = await seedEveryPage(suite.server, 'phone', STAFF_EMAIL);
    const { api, login: user } = seed;

    for (const [kind, viewport] of [
      ['phone', { width: 390, height: 844 }],
      ['desktop', { width: 1280, height: 800 }],
    ] as const) {
      const session = await suite.open(viewport);
      const { page } = session;
      await page.goto('/login');
      await signIn(page, user, { firstTime: kind === 'phone' });
      await page.getByRole('heading', { name: 'Get Started', level: 1 }).waitFor();
      const tooWide: string[] = [];
      const actionsHidden: string[] = [];
      for (const screen of signedInScreens(seed)) {
        await page.goto(screen.path);
        await screen.ready(page).catch(async (error: unknown) => {
          // What the page showed instead, for whoever reads the failure.
          await session.screenshot(`${kind}-${screen.name}-not-ready`);
          throw error;
        });
        if (kind === 'phone') {
          const overflow = await overflowOf(page, screen.name);
          if (overflow) tooWide.push(overflow);
          const actions = await actionsOutOfView(page, screen.name);
          actionsHidden.push(...actions.hidden);
          if (screen.rowActions && actions.checked === 0)
            actionsHidden.push(`${screen.name}: no row action found`);
          if (screen.name === 'cluster-logs') {
            // A log message gets the width of the phone, not one character per line.
            const message = await page.locator('[data-slot=log-message]').first().boundingBox();
            expect(message?.width ?? 0).toBeGreaterThan(300);
          }
          if (screen.name === 'software-build-logs') {
            // So does a build's: the time goes over it.
            const message = await page
              .getByTestId('build-logs')
              .locator('tbody td:visible')
              .first()
              .boundingBox();
            expect(message?.width ?? 0).toBeGreaterThan(300);
          }
        }
        await session.screenshot(`${kind}-${screen.name}`);
      }
      // Both at once, so one run names every page to fix.
      expect({ tooWide, actionsHidden }, 'pages wider than the phone, row actions out of view').toEqual({
        tooWide: [],
        actionsHidden: [],
      });
      expectNoConsoleErrors(session.errors);
    }
    await api.call('DELETE', `/api/v2/clusters/account/${user.username}/id/${seed.cluster}?reason=done`);
    // Two viewports of some 33 pages each, on a shared two-core machine.
  }, 600_000);
});
