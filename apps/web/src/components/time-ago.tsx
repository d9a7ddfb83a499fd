import { timeAgo } from '@/lib/format';
import { useFormatDateTime } from '@/lib/preferences';

/** "5 minutes ago", with the exact time (in the user's time zone) as its tooltip. */
export function TimeAgo({ value, className }: { value: string; className?: string }) {
  const formatDateTime = useFormatDateTime();
  return (
    <time dateTime={value} title={formatDateTime(value)} className={className}>
      {timeAgo(value)}
    </time>
  );
}
