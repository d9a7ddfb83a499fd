import {
  formatDistanceToNowStrict,
  formatDuration as formatDurationWords,
  intervalToDuration,
} from 'date-fns';

import { hasEnded } from '@/lib/clusters/states';

/** "3m 05s", "2h 14m", "3d 4h": how long something has run, at a glance. */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3_600);
  const minutes = Math.floor((seconds % 3_600) / 60);
  const rest = seconds % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  if (days > 0) return `${days}d ${hours}h`;
  if (hours > 0) return `${hours}h ${pad(minutes)}m`;
  if (minutes > 0) return `${minutes}m ${pad(rest)}s`;
  return `${rest}s`;
}

/** Seconds from creation until now, or until it stopped (its last state change) once over. */
export function runtimeSeconds(
  cluster: { created: string; currentState: { state: string; updated: string } },
  now: number = Date.now(),
): number {
  const end = hasEnded(cluster.currentState.state) ? new Date(cluster.currentState.updated).getTime() : now;
  return (end - new Date(cluster.created).getTime()) / 1000;
}

/** "5 minutes ago". */
export const timeAgo = (value: string | number | Date) =>
  formatDistanceToNowStrict(new Date(value), { addSuffix: true });

/** "20 minutes", "1 hour 30 minutes": a setting's duration, in words. */
export function durationInWords(totalSeconds: number): string {
  if (totalSeconds <= 0) return 'none';
  return formatDurationWords(intervalToDuration({ start: 0, end: Math.round(totalSeconds) * 1000 }));
}
