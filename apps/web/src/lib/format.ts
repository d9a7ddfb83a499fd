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

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
export const MIB = 1024 ** 2;

/**
 * "1.2 GiB", "340.5 MiB", "12 B" (binary units, as machines' memory is sold); "—" for nothing
 * (`empty`). `digits` after the point above bytes (default 1); `perSecond` adds "/s".
 */
export function formatBytes(
  bytes: number | null | undefined,
  {
    digits = 1,
    perSecond = false,
    empty = '—',
  }: { digits?: number; perSecond?: boolean; empty?: string } = {},
): string {
  if (!bytes) return empty;
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(unit === 0 ? 0 : digits)} ${BYTE_UNITS[unit]}${perSecond ? '/s' : ''}`;
}

/** "16 GiB": a machine's memory, counted in MiB by the catalogue. */
export const formatMemoryMib = (mib: number) => formatBytes(mib * MIB, { digits: 0 });

/** "5 minutes ago". */
export const timeAgo = (value: string | number | Date) =>
  formatDistanceToNowStrict(new Date(value), { addSuffix: true });

/** "20 minutes", "1 hour 30 minutes": a setting's duration, in words. */
export function durationInWords(totalSeconds: number): string {
  if (totalSeconds <= 0) return 'none';
  return formatDurationWords(intervalToDuration({ start: 0, end: Math.round(totalSeconds) * 1000 }));
}
