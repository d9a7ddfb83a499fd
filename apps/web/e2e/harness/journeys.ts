import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Fills the login form and signs in. `firstTime`: the shell's welcome dialog is expected, and
 * answered with Skip (pages outside the shell, like activate-token, do not show it).
 */
export async function signIn(
  page: Page,
  user: { username: string; password: string },
  { firstTime = false } = {},
) {
  await page.getByLabel('Username or email').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (firstTime) {
    await page.getByRole('dialog', { name: 'Welcome to Cumulus' }).waitFor();
    await page.getByRole('button', { name: 'Skip' }).click();
    await page.getByRole('dialog', { name: 'Welcome to Cumulus' }).waitFor({ state: 'detached' });
  }
}

/** The session key the console keeps in local storage. */
export const storedToken = (page: Page) => page.evaluate(() => window.localStorage.getItem('cumulus.token'));

/** Polls `check` until it passes (the machine is shared and slow: never a fixed sleep). */
export async function eventually(check: () => Promise<void> | void, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export function expectNoConsoleErrors(errors: string[]) {
  expect(errors, 'console errors in the page').toEqual([]);
}

/**
 * Waits until a per-instance metrics chart has a current value for its scheduler and its worker:
 * each instance reports on its own clock, so one may show a refresh before the other.
 */
export async function waitForSchedulerAndWorkerLines(chart: Locator, timeoutMs: number): Promise<void> {
  for (const role of ['scheduler', 'worker']) {
    await chart
      .getByRole('listitem')
      .filter({ hasText: role })
      .filter({ hasText: 'now' })
      .first()
      .waitFor({ timeout: timeoutMs });
  }
}

/**
 * The Team page's organization picker: search, pick, and wait until the picker names the
 * organization. Right after a sign-in the page renders again as the user's data loads, and a click
 * can be lost with the element it landed on (CI, twice: the picker never named the organization and
 * the journey waited 30 s): the whole pick is tried again, as the Scope picker's is.
 */
export async function pickOrganization(page: Page, name: string): Promise<void> {
  const picked = page.getByRole('combobox', { name: `Organization: ${name}` });
  const search = page.getByRole('combobox', { name: 'Search for an organization' });
  for (let attempt = 1; ; attempt++) {
    try {
      if (!(await search.isVisible())) await page.getByRole('combobox', { name: /^Organization/ }).click();
      await search.fill(name);
      await page.getByRole('option', { name: new RegExp(name) }).click({ timeout: 15_000 });
      await picked.waitFor({ timeout: 10_000 });
      return;
    } catch (error) {
      if (await picked.isVisible()) return;
      if (attempt >= 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}
