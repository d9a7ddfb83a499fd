import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { UsageReport } from '@/data/usage/usage-query';
import { defaultRange } from '@/features/usage/search-params';
import { UsagePage } from '@/features/usage/UsagePage';
import { usageCsv } from '@/features/usage/usage-csv';
import { pickScope } from '@/lib/scopes';
import { reply, stubApi } from '@/test/api-stub';
import { captureDownloads } from '@/test/downloads';
import { renderSignedIn } from '@/test/signed-in';

const acme = {
  type: 'account',
  id: 7,
  name: 'Acme',
  slug: 'acme',
  email: null,
  workspace_names: [],
  organization_id: 3,
};

const report: UsageReport = {
  unit: 'credits',
  period: 'day',
  groupby: 'cluster',
  start: '2030-01-01',
  end: '2030-01-02',
  total: 1234.5,
  groups: [
    { key: '62', label: 'etl (62)', total: 1000 },
    { key: 'team_a', label: 'train, "big"', total: 234.5 },
  ],
  buckets: [
    { start: '2030-01-01T00:00:00.000Z', total: 600, values: { '62': 600 } },
    { start: '2030-01-02T00:00:00.000Z', total: 634.5, values: { '62': 400, team_a: 234.5 } },
  ],
};

function openUsage(url = '/usage', usage: unknown = report) {
  const api = stubApi({ 'GET /api/v2/users/user/valid-scopes': [acme], 'GET /api/v2/usage/': usage });
  const view = renderSignedIn(<UsagePage />, { url });
  const lastQuery = () => Object.fromEntries(api.callsTo('GET', '/api/v2/usage/').at(-1)!.query);
  return { ...view, api, lastQuery };
}

const pick = async (picker: string, option: string) => {
  fireEvent.click(screen.getByRole('combobox', { name: picker }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
};

describe('UsagePage', () => {
  beforeEach(() => pickScope(null));
  afterEach(() => vi.restoreAllMocks());

  it("charts the buckets and lists each group's total and share, in the workspace scope", async () => {
    const { lastQuery } = openUsage('/usage?groupby=cluster');
    const chart = await screen.findByRole('img', { name: /Credits by day from 2030-01-01 to 2030-01-02/ });
    expect(chart).toHaveAccessibleName(
      'Credits by day from 2030-01-01 to 2030-01-02: 1,234.50 in total across 2 groups.',
    );
    expect(chart.querySelectorAll('[data-bucket]')).toHaveLength(2);
    expect(within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem')).toHaveLength(2);

    const row = (name: string) => screen.getByRole('cell', { name }).closest('tr') as HTMLElement;
    expect(within(row('etl (62)')).getByText('1,000.00')).toBeInTheDocument();
    expect(within(row('etl (62)')).getByText('81%')).toBeInTheDocument();
    expect(within(row('train, "big"')).getByText('19%')).toBeInTheDocument();
    expect(within(row('Total')).getByText('1,234.50')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Cluster' })).toBeInTheDocument();

    expect(lastQuery()).toEqual({
      unit: 'credits',
      period: 'day',
      groupby: 'cluster',
      ...defaultRange(),
      group_filters: '{"account":["7"]}',
    });

    // The focused chart reads a bucket: its date and each group's value.
    fireEvent.focus(screen.getByRole('group', { name: /Usage chart/ }));
    const tooltip = screen.getByRole('tooltip');
    expect(tooltip).toHaveTextContent('2030-01-02');
    expect(tooltip).toHaveTextContent('etl (62)400.00');
    expect(tooltip).toHaveTextContent('Total634.50');
    fireEvent.keyDown(screen.getByRole('group', { name: /Usage chart/ }), { key: 'ArrowLeft' });
    expect(screen.getByRole('tooltip')).toHaveTextContent('2030-01-01');
  });

  it('keeps unit, period and group-by in the URL and asks for them', async () => {
    const view = openUsage('/usage?start=2030-01-01&end=2030-01-02', { ...report, groupby: null });
    await screen.findByRole('img');
    expect(view.lastQuery()).toMatchObject({ unit: 'credits', period: 'day', start: '2030-01-01' });

    await pick('Unit', 'Instance minutes');
    await waitFor(() => expect(view.router.state.location.search).toContain('unit=instance-minutes'));
    await waitFor(() => expect(view.lastQuery().unit).toBe('instance-minutes'));

    await pick('Period', 'Hour');
    await waitFor(() => expect(view.lastQuery().period).toBe('hour'));
    await pick('Group by', 'Workspace');
    await waitFor(() => expect(view.lastQuery().groupby).toBe('account'));
    expect(new URLSearchParams(view.router.state.location.search).toString()).toBe(
      'start=2030-01-01&end=2030-01-02&unit=instance-minutes&period=hour&groupby=account',
    );

    await pick('Group by', 'Tag');
    fireEvent.change(screen.getByLabelText('Tag name'), { target: { value: 'team' } });
    fireEvent.blur(screen.getByLabelText('Tag name'));
    await waitFor(() => expect(view.lastQuery()).toMatchObject({ groupby: 'tag', groupby_tag: 'team' }));
    expect(view.router.state.location.search).toContain('tag=team');

    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2029-12-01' } });
    await waitFor(() => expect(view.lastQuery().start).toBe('2029-12-01'));
  });

  it("shows the server's message about the range next to the dates", async () => {
    const message = 'At most 31 days by hour: choose a longer period or a shorter range.';
    openUsage('/usage?period=hour&start=2030-01-01&end=2030-03-01', reply(400, { end: [message] }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByLabelText('To')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Choose another range')).toBeInTheDocument();
  });

  it('says when there is no usage, and when it cannot be loaded (with retry)', async () => {
    let fail = true;
    openUsage('/usage', () =>
      fail ? { status: 500, body: {} } : { body: { ...report, total: 0, groups: [], buckets: [] } },
    );
    expect(await screen.findByText('Could not load usage')).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('No usage in this range')).toBeInTheDocument();
    expect(screen.getByText(/recorded per instance-minute while clusters run/)).toBeInTheDocument();
  });

  it('downloads the loaded data as bucket,group,value rows', async () => {
    const downloads = captureDownloads();
    openUsage('/usage?groupby=cluster');
    fireEvent.click(await screen.findByRole('button', { name: 'Download CSV' }));
    expect(downloads.fileName(0)).toBe('usage-credits-day-2030-01-01-to-2030-01-02.csv');
    const expected = [
      'bucket,group,value',
      '2030-01-01T00:00:00.000Z,etl (62),600',
      '2030-01-02T00:00:00.000Z,etl (62),400',
      '2030-01-02T00:00:00.000Z,"train, ""big""",234.5',
      '',
    ].join('\n');
    expect(await downloads.text(0)).toBe(expected);
    // A label a spreadsheet would run as a formula is kept as text.
    const formula = {
      ...report,
      groups: [{ key: 'x', label: '=cmd()', total: 1 }],
      buckets: [{ start: '2030-01-01', total: 1, values: { x: 1 } }],
    };
    expect(usageCsv(formula)).toBe("bucket,group,value\n2030-01-01,'=cmd(),1\n");
  });
});
