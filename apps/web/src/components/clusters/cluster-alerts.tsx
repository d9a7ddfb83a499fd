import { CircleXIcon, InfoIcon, TriangleAlertIcon } from 'lucide-react';

import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import type { ClusterAlert } from '@/data/clusters/cluster-alerts-query';
import { useFormatDateTime } from '@/lib/preferences';
import { cn } from '@/lib/utils';

/** Alert levels: 40 is destructive, 30 the default, others informational. */
export function alertLook(level: number) {
  if (level >= 40) return { variant: 'destructive' as const, icon: CircleXIcon, className: '' };
  if (level === 30)
    return { variant: 'default' as const, icon: TriangleAlertIcon, className: 'text-warning' };
  return { variant: 'default' as const, icon: InfoIcon, className: 'text-info' };
}

/** What went wrong with the cluster, newest first, each with when it first happened. */
export function ClusterAlerts({ alerts }: { alerts: ClusterAlert[] }) {
  const formatDateTime = useFormatDateTime();
  if (alerts.length === 0) return null;
  return (
    <section aria-label="Alerts" className="grid gap-2">
      {alerts.map((alert) => {
        const look = alertLook(alert.level);
        return (
          <Alert key={`${alert.title}-${alert.firstOccurred}`} variant={look.variant}>
            <look.icon className={cn(look.className)} aria-hidden="true" />
            <AlertTitle className="flex flex-wrap items-baseline justify-between gap-x-3">
              <span>{alert.title}</span>
              <time
                dateTime={alert.firstOccurred}
                className="text-muted-foreground font-mono text-xs font-normal tabular-nums"
              >
                {formatDateTime(alert.firstOccurred)}
              </time>
            </AlertTitle>
            <AlertDescription className="break-words">{alert.message}</AlertDescription>
          </Alert>
        );
      })}
    </section>
  );
}
