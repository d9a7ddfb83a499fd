import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { ScrollingPre } from '@/components/scrolling-pre';

/** jsdom lays nothing out: give every element the widths a real browser would measure. */
function widths(content: number, box: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(content);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(box);
}

describe('ScrollingPre', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is a named region the keyboard reaches while its text is wider than it', () => {
    widths(900, 300);
    render(<ScrollingPre label="pip requirements">numpy==2.0 pandas==2.2</ScrollingPre>);
    const region = screen.getByRole('region', { name: 'pip requirements' });
    expect(region).toHaveAttribute('tabindex', '0');
  });

  it('is no tab stop and no region while everything fits', () => {
    widths(300, 300);
    render(<ScrollingPre label="pip requirements">numpy</ScrollingPre>);
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(screen.getByText('numpy')).not.toHaveAttribute('tabindex');
  });
});
