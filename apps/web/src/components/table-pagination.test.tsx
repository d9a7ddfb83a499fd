import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { DataTable } from '@/components/data-table';
import { TablePagination } from '@/components/table-pagination';

describe('TablePagination', () => {
  it('disables Previous on page 0 and moves forward with Next', () => {
    const onPageChange = vi.fn();
    render(<TablePagination page={0} pageSize={50} total={123} onPageChange={onPageChange} />);

    expect(screen.getByText('1–50 of 123')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /previous/i })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: /next/i }));
    expect(onPageChange).toHaveBeenCalledWith(1);
  });

  it('disables Next on the last page and goes back with Previous', () => {
    const onPageChange = vi.fn();
    render(<TablePagination page={2} pageSize={50} total={123} onPageChange={onPageChange} />);

    expect(screen.getByText('101–123 of 123')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /next/i })).toBeDisabled();

    fireEvent.click(screen.getByRole('button', { name: /previous/i }));
    expect(onPageChange).toHaveBeenCalledWith(1);
  });
});

describe('DataTable', () => {
  const columns = [{ id: 'name', header: 'Name', cell: (row: { name: string }) => row.name }];
  const pagination = { page: 0, pageSize: 50, onPageChange: () => {} };

  it('renders one row per item, and the pagination', () => {
    render(
      <DataTable
        rows={[{ name: 'etl-1' }, { name: 'etl-2' }]}
        columns={columns}
        getRowId={(row) => row.name}
        total={2}
        {...pagination}
      />,
    );

    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();
  });

  it('shows the empty node when there are no rows', () => {
    render(
      <DataTable
        rows={[]}
        columns={columns}
        getRowId={(row) => row.name}
        total={0}
        empty="No clusters"
        {...pagination}
      />,
    );

    expect(screen.getByText('No clusters')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).not.toBeInTheDocument();
  });

  it('shows skeleton rows, not the empty node, while the first page loads', () => {
    const { container } = render(
      <DataTable
        rows={[]}
        columns={columns}
        getRowId={(row) => row.name}
        total={0}
        loading
        empty="No clusters"
        {...pagination}
      />,
    );

    expect(screen.queryByText('No clusters')).not.toBeInTheDocument();
    expect(container.querySelectorAll('[data-slot=skeleton]').length).toBeGreaterThan(0);
  });
});
