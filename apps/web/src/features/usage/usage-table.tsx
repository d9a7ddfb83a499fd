import {
  Table,
  TableBody,
  TableCell,
  TableFooter,
  TableHead,
  TableHeader,
  TableRow,
} from '@/components/ui/table';
import type { UsageReport } from '@/data/usage/usage-query';
import { formatUsage } from '@/features/usage/units';
import { Swatch } from '@/features/usage/usage-chart';

const percent = new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 });

type UsageTableProps = { report: UsageReport; groupLabel: string; colorOf: (key: string) => string };

/** Each group's total and share of the whole, largest first, and the total. */
export function UsageTable({ report, groupLabel, colorOf }: UsageTableProps) {
  const share = (total: number) => (report.total > 0 ? percent.format(total / report.total) : '—');
  return (
    <div className="bg-card overflow-x-auto rounded-xl border">
      <Table>
        <TableHeader className="bg-muted/40">
          <TableRow className="hover:bg-transparent">
            <TableHead className="text-muted-foreground h-9 px-4 text-xs font-medium">{groupLabel}</TableHead>
            <TableHead className="text-muted-foreground h-9 px-4 text-right text-xs font-medium">
              Total
            </TableHead>
            <TableHead className="text-muted-foreground h-9 px-4 text-right text-xs font-medium">
              Share
            </TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {report.groups.map((group) => (
            <TableRow key={group.key}>
              <TableCell className="px-4">
                <span className="flex max-w-72 min-w-0 items-center gap-2">
                  <Swatch color={colorOf(group.key)} />
                  <span className="truncate" title={group.label}>
                    {group.label}
                  </span>
                </span>
              </TableCell>
              <TableCell className="px-4 text-right tabular-nums">
                {formatUsage(group.total, report.unit)}
              </TableCell>
              <TableCell className="text-muted-foreground px-4 text-right tabular-nums">
                {share(group.total)}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
        <TableFooter>
          <TableRow className="hover:bg-transparent">
            <TableCell className="px-4 font-medium">Total</TableCell>
            <TableCell className="px-4 text-right font-medium tabular-nums">
              {formatUsage(report.total, report.unit)}
            </TableCell>
            <TableCell className="text-muted-foreground px-4 text-right tabular-nums">
              {share(report.total)}
            </TableCell>
          </TableRow>
        </TableFooter>
      </Table>
    </div>
  );
}
