import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { ClusterAlerts } from '@/components/clusters/cluster-alerts';
import { setTimeZone } from '@/lib/preferences';

describe('ClusterAlerts', () => {
  it('shows each alert with its title, message and first time (yyyy-MM-dd HH:mm:ss); errors look destructive', () => {
    setTimeZone('UTC');
    render(
      <ClusterAlerts
        alerts={[
          {
            level: 40,
            title: 'Worker etl-worker-ab12 failed',
            message: 'dask-worker exited with code 1',
            firstOccurred: '2030-01-15T12:00:05.000000+00:00',
          },
          {
            level: 30,
            title: 'Slow start',
            message: 'Still waiting',
            firstOccurred: '2030-01-15T12:00:01.000000+00:00',
          },
        ]}
      />,
    );
    const [failed, slow] = screen.getAllByRole('alert');
    expect(failed).toHaveTextContent('Worker etl-worker-ab12 failed');
    expect(failed).toHaveTextContent('dask-worker exited with code 1');
    expect(failed).toHaveTextContent('2030-01-15 12:00:05');
    expect(failed!.className).toContain('text-destructive');
    expect(slow!.className).not.toContain('text-destructive');
  });

  it('renders nothing without alerts', () => {
    const { container } = render(<ClusterAlerts alerts={[]} />);
    expect(container).toBeEmptyDOMElement();
  });
});
