import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { Markdown } from '@/components/markdown';
import { renderPage } from '@/test/render';

const show = (source: string) => renderPage(<Markdown source={source} />);
const link = (name: string) => screen.getByRole('link', { name });

describe('Markdown', () => {
  it('renders paragraphs, emphasis, code, lists and tables as elements', () => {
    const { container } = show(
      'Worker **w-1** failed: `exit 1` &amp; _retrying_.\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |',
    );
    expect(container.querySelector('strong')).toHaveTextContent('w-1');
    expect(container.querySelector('code')).toHaveTextContent('exit 1');
    expect(container.querySelector('em')).toHaveTextContent('retrying');
    expect(container.querySelector('p')).toHaveTextContent('Worker w-1 failed: exit 1 & retrying.');
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['one', 'two']);
    expect(screen.getByRole('table')).toHaveTextContent('ab12');
  });

  it('keeps links the rule allows: console paths stay in the console, web links open beside it', () => {
    show(
      '[cluster](/clusters/7?account=etl) [top](#alerts) [guide](docs/guide) [site](https://example.org) [mail](mailto:help@example.org) [call](tel:+15550100) [next](page?to=javascript:x)',
    );
    expect(link('cluster')).toHaveAttribute('href', '/clusters/7?account=etl');
    expect(link('cluster')).not.toHaveAttribute('target');
    expect(link('top')).toHaveAttribute('href', '#alerts');
    expect(link('guide')).toHaveAttribute('href', 'docs/guide');
    expect(link('site')).toHaveAttribute('href', 'https://example.org');
    expect(link('site')).toHaveAttribute('target', '_blank');
    expect(link('site')).toHaveAttribute('rel', 'noreferrer noopener');
    expect(link('mail')).toHaveAttribute('href', 'mailto:help@example.org');
    expect(link('call')).toHaveAttribute('href', 'tel:+15550100');
    expect(link('next')).toHaveAttribute('href', 'page?to=javascript:x');
  });

  it('replaces any other link, however written, with a harmless no-op link', () => {
    show(
      '[a](javascript:alert(1)) [b](JAVASCRIPT:alert(1)) [c](java&#115;cript:alert(1)) [d](data:text/html,x) <javascript:alert(1)> [e](vbscript:x) ![f](javascript:alert(1))',
    );
    for (const name of ['a', 'b', 'c', 'd', 'javascript:alert(1)', 'e', 'f']) {
      expect(link(name)).toHaveAttribute('href', '#');
      expect(link(name)).toHaveAttribute('data-link-removed');
    }
  });

  it('shows raw HTML as text and loads no image', () => {
    const { container } = show(
      '<img src=x onerror="alert(1)"> and <script>alert(2)</script> ![logo](https://example.org/a.png)',
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('script')).toBeNull();
    expect(container).toHaveTextContent('<img src=x onerror="alert(1)">');
    expect(link('logo')).toHaveAttribute('href', 'https://example.org/a.png');
  });
});
