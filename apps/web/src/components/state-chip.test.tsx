import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { StateChip, stateTone } from '@/components/state-chip';

describe('StateChip', () => {
  it.each([
    ['ready', 'success'],
    ['started', 'success'],
    ['built', 'success'],
    ['pending', 'progress'],
    ['starting', 'progress'],
    ['scaling', 'progress'],
    ['queued', 'progress'],
    ['stopping', 'progress'],
    ['stopped', 'neutral'],
    ['paused', 'neutral'],
    ['error', 'error'],
    ['running', 'progress'],
    ['done', 'success'],
    ['failed', 'error'],
    ['cancelled', 'neutral'],
    ['rebalancing', 'warning'],
  ])('gives %s the %s tone', (state, tone) => {
    expect(stateTone(state)).toBe(tone);
  });

  it('colors green, amber, gray and red by state', () => {
    render(
      <>
        <StateChip state="ready" />
        <StateChip state="pending" />
        <StateChip state="stopped" />
        <StateChip state="error" />
      </>,
    );

    expect(screen.getByText('Ready')).toHaveClass('text-success');
    expect(screen.getByText('Pending')).toHaveClass('text-warning');
    expect(screen.getByText('Stopped')).toHaveClass('text-muted-foreground');
    expect(screen.getByText('Error')).toHaveClass('text-destructive');
  });

  it('shows an unknown state as a warning chip with its own name', () => {
    render(<StateChip state="ready_spot_fallback" />);

    const chip = screen.getByText('Ready spot fallback');
    expect(chip).toHaveAttribute('data-tone', 'warning');
    expect(chip).toHaveClass('text-warning');
  });

  it('keeps the color of the state when given a label', () => {
    render(<StateChip state="starting" label="Downloading Environment" />);

    expect(screen.getByText('Downloading Environment')).toHaveAttribute('data-tone', 'progress');
  });
});
