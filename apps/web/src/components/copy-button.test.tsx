import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CopyButton } from '@/components/copy-button';

describe('CopyButton', () => {
  const writeText = vi.fn<(text: string) => Promise<void>>();

  beforeEach(() => {
    vi.useFakeTimers();
    writeText.mockReset();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('copies the value, confirms, and reverts after 2 s', async () => {
    writeText.mockResolvedValue(undefined);
    render(<CopyButton value="cumulus_secret" label="Copy token" />);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy token' }));
    });

    expect(writeText).toHaveBeenCalledWith('cumulus_secret');
    expect(screen.getByRole('button', { name: 'Copied' })).toHaveAttribute('data-copied', 'true');

    act(() => vi.advanceTimersByTime(1_999));
    expect(screen.getByRole('button', { name: 'Copied' })).toBeInTheDocument();

    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('button', { name: 'Copy token' })).not.toHaveAttribute('data-copied');
  });

  it('only logs a failed copy, without confirming', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failure = new Error('denied');
    writeText.mockRejectedValue(failure);
    render(<CopyButton value="x" />);

    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });

    expect(warn).toHaveBeenCalledWith('Copy to clipboard failed', failure);
    expect(screen.getByRole('button', { name: 'Copy' })).not.toHaveAttribute('data-copied');
  });
});
