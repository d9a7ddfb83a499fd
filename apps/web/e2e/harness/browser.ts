import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
/** Screenshots of the main screens, kept as test artifacts (gitignored). */
export const ARTIFACTS = path.resolve(here, '../../../../test-artifacts/console');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

// The console answers expected 4xx (a wrong password, a form's field errors) in its UI; Chromium
// still logs each as a failed resource. Everything else logged as an error fails the test.
const EXPECTED_HTTP_ERROR = /^Failed to load resource: the server responded with a status of 4\d\d/;

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far. */
  errors: string[];
  /** Saves `<name>.png`: the viewport, or (`fullPage`) the whole scrolled page. */
  screenshot(name: string, options?: { fullPage?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** A fresh browser context (no cookies, no storage) on the console at `base`. */
export async function openSession(
  browser: Browser,
  base: string,
  viewport = { width: 1440, height: 900 },
): Promise<Session> {
  const context = await browser.newContext({ baseURL: base, viewport, colorScheme: 'dark' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  context.setDefaultTimeout(30_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !EXPECTED_HTTP_ERROR.test(message.text())) errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(`Uncaught: ${error.message}`));
  mkdirSync(ARTIFACTS, { recursive: true });
  return {
    context,
    page,
    errors,
    async screenshot(name: string, { fullPage = false } = {}) {
      // Let enter animations (dialogs, sidebar width) settle before the picture.
      await page.waitForTimeout(400);
      const file = path.join(ARTIFACTS, `${name}.png`);
      const viewport = page.viewportSize();
      if (!fullPage || !viewport) return void (await page.screenshot({ path: file }));
      // A viewport as tall as the page, so the fixed sidebar and sticky top bar stay where they belong.
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewportSize({ width: viewport.width, height: Math.max(height, viewport.height) });
      await page.waitForTimeout(400);
      await page.screenshot({ path: file });
      await page.setViewportSize(viewport);
    },
    close: () => context.close(),
  };
}
