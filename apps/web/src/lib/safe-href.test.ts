import { describe, expect, it } from 'vitest';

import { NO_OP_HREF, safeHref } from '@/lib/safe-href';

describe('the markdown link rule', () => {
  it('keeps links that start with # or /', () => {
    for (const href of ['#alerts', '/clusters/7?account=etl', '//cdn.example.org/x', '/a:b']) {
      expect(safeHref(href)).toBe(href);
    }
  });

  it('keeps links without a scheme', () => {
    for (const href of ['clusters/7', 'page.html', 'docs/a:b', './x', '../y', '', 'x?y=1']) {
      expect(safeHref(href)).toBe(href);
    }
  });

  it('keeps http, https, mailto and tel, in any case', () => {
    for (const href of [
      'http://example.org',
      'https://example.org/a?b=c#d',
      'HTTPS://EXAMPLE.ORG',
      'mailto:help@example.org',
      'tel:+1-555-0100',
    ]) {
      expect(safeHref(href)).toBe(href);
    }
  });

  it('replaces every other scheme with a harmless no-op link', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'ftp://example.org',
      'blob:https://example.org/1',
      'chrome://settings',
    ]) {
      expect(safeHref(href)).toBe(NO_OP_HREF);
    }
  });

  it('sees a scheme through the whitespace and control characters browsers ignore', () => {
    for (const href of [
      ' javascript:alert(1)',
      '\tjavascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0000javascript:alert(1)',
      'javascript\r:alert(1)',
    ]) {
      expect(safeHref(href)).toBe(NO_OP_HREF);
    }
  });

  it('tolerates a scheme that only comes after ? or #', () => {
    for (const href of [
      'page?next=javascript:alert(1)',
      'page#javascript:alert(1)',
      '?redirect=data:text/html,x',
      '#x:y',
      'https://example.org/?to=javascript:alert(1)',
    ]) {
      expect(safeHref(href)).toBe(href);
    }
  });
});
