import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.1, levels A and AA. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The serious and critical violations axe finds on the page as it is now, one line per node. */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  // Evaluated over the DevTools protocol: the console's CSP refuses an injected script tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Enter animations (dialogs, fading cards) would be measured half-way: let them end.
  await page.waitForTimeout(300);
  const violations = await page.evaluate(async (tags) => {
    const { axe } = window as unknown as { axe: { run: (options: object) => Promise<AxeResults> } };
    const results = await axe.run({ runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return results.violations;
  }, WCAG_TAGS);
  return violations
    .filter((rule) => rule.impact === 'serious' || rule.impact === 'critical')
    .flatMap((rule) =>
      rule.nodes.map(
        (node) =>
          `${where}: ${rule.id} (${rule.impact}) at ${node.target.join(' ')}: ${node.html.slice(0, 160)}`,
      ),
    );
}
