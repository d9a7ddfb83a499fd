import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { DEFAULT_FILTERS } from '@/features/software/search-params';
import { SoftwareFilters } from '@/features/software/software-filters';

describe('the Software filters', () => {
  it('say that the default filter hides package-synced environments, and show them in one click', () => {
    const onChange = vi.fn();
    render(
      <SoftwareFilters
        filters={[...DEFAULT_FILTERS, { key: 'status', value: 'built' }]}
        onChange={onChange}
      />,
    );
    expect(
      screen.getByText(/Package-synced environments .* are hidden by the package_sync: False filter/),
    ).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show package-synced environments' }));
    expect(onChange).toHaveBeenCalledWith([{ key: 'status', value: 'built' }]);
  });

  it('say nothing of package sync once they are shown', () => {
    render(<SoftwareFilters filters={[]} onChange={vi.fn()} />);
    expect(screen.queryByText(/Package-synced environments/)).not.toBeInTheDocument();
  });
});
