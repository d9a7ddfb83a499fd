import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * How far the page reaches past the viewport, measured in the browser: the document (page-level
 * sideways scroll) and the page's content column (content clipped by an overflow-hidden parent
 * still overflows it). Tables and code may scroll inside their own card; that does not count.
 */
export function sidewaysOverflow(page: Page) {
  return page.evaluate(() => {
    const column = document.querySelector<HTMLElement>('[data-slot=page]');
    return {
      document: document.documentElement.scrollWidth - window.innerWidth,
      column: column ? column.scrollWidth - column.clientWidth : 0,
    };
  });
}

/** The page has no sideways scroll of its own (spec: every page fits 390 px). */
export async function expectFits(page: Page, name: string) {
  expect(await sidewaysOverflow(page), `${name} overflows sideways`).toEqual({ document: 0, column: 0 });
}

/** `name: N px` for a page that overflows, else null (to report every page at once). */
export async function overflowOf(page: Page, name: string): Promise<string | null> {
  const { document, column } = await sidewaysOverflow(page);
  return document > 0 || column > 0 ? `${name}: ${Math.max(document, column)} px too wide` : null;
}

/**
 * The row actions (the controls of each table row's last cell) that a 390 px screen does not show
 * whole: outside the viewport, or scrolled out of sight inside their table's card, as
 * `name: "label" at left–right px` (to report every page at once); and how many were checked.
 */
export async function actionsOutOfView(
  page: Page,
  name: string,
): Promise<{ checked: number; hidden: string[] }> {
  const { checked, hidden } = await page.evaluate(() => {
    const out: string[] = [];
    let count = 0;
    // What of an element can be seen: the viewport, cut by every ancestor that clips.
    const visibleBox = (element: Element) => {
      let left = 0;
      let right = window.innerWidth;
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        const style = getComputedStyle(parent);
        if (style.overflowX === 'visible') continue;
        const box = parent.getBoundingClientRect();
        left = Math.max(left, box.left);
        right = Math.min(right, box.right);
      }
      return { left, right };
    };
    for (const row of document.querySelectorAll('table tbody tr')) {
      const cells = row.querySelectorAll(':scope > td');
      const last = cells[cells.length - 1];
      if (!last || cells.length < 2) continue;
      for (const control of last.querySelectorAll('button, a[href], [role=switch]')) {
        const box = control.getBoundingClientRect();
        if (box.width === 0) continue;
        count += 1;
        const seen = visibleBox(control);
        if (box.left < seen.left - 1 || box.right > seen.right + 1) {
          const label = control.getAttribute('aria-label') ?? control.textContent?.trim() ?? '?';
          out.push(`"${label}" at ${Math.round(box.left)}–${Math.round(box.right)} px`);
        }
      }
    }
    return { checked: count, hidden: out };
  });
  return { checked, hidden: hidden.map((control) => `${name}: ${control}`) };
}
