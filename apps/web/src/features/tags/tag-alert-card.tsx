import { Link } from 'react-router';
import { alertLook } from '@/components/clusters/cluster-alerts';
import { Markdown } from '@/components/markdown';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { useFormatDateTime } from '@/lib/preferences';
import { cn } from '@/lib/utils';

export type AlertContent = {
  level: number;
  title: string;
  /** Markdown, rendered by the link rule of lib/safe-href. */
  message: string;
  firstOccurred?: string;
  cluster?: { id: number; name: string; account: string };
  tags?: Record<string, string>;
};

/** An alert as the console shows it: level, title, when, the markdown message and its cluster's tags. */
export function TagAlertCard({ alert }: { alert: AlertContent }) {
  const formatDateTime = useFormatDateTime();
  const look = alertLook(alert.level);
  const tags = Object.entries(alert.tags ?? {});
  return (
    <Alert variant={look.variant}>
      <look.icon className={cn(look.className)} aria-hidden="true" />
      <AlertTitle className="flex flex-wrap items-baseline justify-between gap-x-3">
        <span className="min-w-0 break-words">{alert.title || 'Untitled alert'}</span>
        {alert.firstOccurred ? (
          <time
            dateTime={alert.firstOccurred}
            className="text-muted-foreground font-mono text-xs font-normal tabular-nums"
          >
            {formatDateTime(alert.firstOccurred)}
          </time>
        ) : null}
      </AlertTitle>
      <AlertDescription className="grid min-w-0 gap-2">
        <Markdown source={alert.message} className="text-foreground/90" />
        {alert.cluster || tags.length > 0 ? (
          <div className="flex flex-wrap items-center gap-1.5 text-xs">
            {alert.cluster ? (
              <Link
                to={`/clusters/${alert.cluster.id}?account=${encodeURIComponent(alert.cluster.account)}`}
                className="text-muted-foreground hover:text-foreground mr-1 hover:underline"
              >
                {alert.cluster.account} / {alert.cluster.name}
              </Link>
            ) : null}
            {tags.map(([key, value]) => (
              <Badge key={key} variant="outline" className="max-w-full font-mono font-normal break-all">
                {key}: {value}
              </Badge>
            ))}
          </div>
        ) : null}
      </AlertDescription>
    </Alert>
  );
}
