import type { UsageReport } from '@/data/usage/usage-query';
import { saveText } from '@/lib/download';

// Quoted when it holds a separator; a label that a spreadsheet would run as a formula is defused.
function cell(value: string): string {
  const safe = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** `bucket,group,value` rows: each bucket's start and each group's value in it, as loaded. */
export function usageCsv(report: UsageReport): string {
  const rows = ['bucket,group,value'];
  for (const bucket of report.buckets)
    for (const group of report.groups) {
      const value = bucket.values[group.key];
      if (value !== undefined) rows.push([bucket.start, cell(group.label), String(value)].join(','));
    }
  return `${rows.join('\n')}\n`;
}

export const usageCsvName = (report: UsageReport) =>
  `usage-${report.unit}-${report.period}-${report.start}-to-${report.end}.csv`;

export const downloadUsageCsv = (report: UsageReport) =>
  saveText(usageCsvName(report), usageCsv(report), 'text/csv;charset=utf-8');
