import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { seriousViolations } from './harness/axe';
import { expectNoConsoleErrors } from './harness/journeys';
import { consoleSuite } from './harness/suite';

const suite = consoleSuite();

const pageWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe('Docs', () => {
  it('searches every page from a box on each one, by keyboard, down to the section, at 1440 and 390 px', async () => {
    const found: string[] = [];
    for (const width of [1440, 390]) {
      const session = await suite.open({ width, height: width > 500 ? 900 : 844 });
      const { page } = session;
      await page.goto('/docs/quickstart');
      const box = page.getByRole('searchbox', { name: 'Search the documentation' });
      // The keyboard reaches it right after the skip link and the home link.
      for (let presses = 0; presses < 3; presses++) await page.keyboard.press('Tab');
      expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
      await page.keyboard.type('idle_timeout');
      await session.screenshot(`docs-search-box-${width}`);
      await page.keyboard.press('Enter');
      await page.waitForURL('**/docs/search?q=idle_timeout');
      await page.getByRole('heading', { level: 1, name: 'Results for “idle_timeout”' }).waitFor();
      expect(await box.inputValue()).toBe('idle_timeout');
      const results = page.getByRole('main').getByRole('listitem');
      expect(await results.count()).toBeGreaterThan(1);
      await page
        .getByRole('status')
        .filter({ hasText: /sections? holds? every word/ })
        .waitFor();
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      found.push(...(await seriousViolations(page, `docs-search @${width}`)));
      await session.screenshot(`docs-search-results-${width}`, { fullPage: width < 500 });

      // A result leads to its section, named by page and heading.
      const section = page.getByRole('link', { name: /^Clusters\s*:\s*Names, limits and stopping$/ });
      await section.focus();
      await page.keyboard.press('Enter');
      await page.waitForURL('**/docs/clusters#names-limits-and-stopping');
      expect(
        await page.getByRole('heading', { level: 2, name: 'Names, limits and stopping' }).isVisible(),
      ).toBe(true);

      // Nothing found says so, with what was asked.
      await box.fill('zzqx nothing');
      await box.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'No results for “zzqx nothing”' }).waitFor();
      expect(await page.getByRole('main').getByRole('listitem').count()).toBe(0);
      found.push(...(await seriousViolations(page, `docs-search-none @${width}`)));
      await session.screenshot(`docs-search-none-${width}`);
      expect(await pageWidth(page)).toBeLessThanOrEqual(width);
      expectNoConsoleErrors(session.errors);
      await session.close();
    }
    expect(found, 'serious or critical accessibility violations').toEqual([]);
  });
});
