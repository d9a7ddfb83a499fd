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
