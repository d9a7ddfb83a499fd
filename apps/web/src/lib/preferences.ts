import { useSyncExternalStore } from 'react';

import { readCookie, readStored, STORAGE_KEYS, writeStored } from '@/lib/storage';

// Display preferences of the Profile page, readable by every page that shows times or charts.

export type TimeZoneChoice = 'browser' | 'UTC';
export type ChartColorScheme = 'pretty' | 'high-contrast';

/** Kept in a strict same-site cookie. */
export const CHART_COLOR_COOKIE = 'chart_color_scheme';
const ONE_YEAR_S = 60 * 60 * 24 * 365;

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export const browserTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

function readTimeZone(): TimeZoneChoice {
  return readStored(STORAGE_KEYS.timeZone) === 'UTC' ? 'UTC' : 'browser';
}

export function setTimeZone(choice: TimeZoneChoice) {
  writeStored(STORAGE_KEYS.timeZone, choice);
  notify();
}

export function useTimeZone(): TimeZoneChoice {
  return useSyncExternalStore(subscribe, readTimeZone, readTimeZone);
}

function readChartColorScheme(): ChartColorScheme {
  return readCookie(CHART_COLOR_COOKIE) === 'high-contrast' ? 'high-contrast' : 'pretty';
}

export function setChartColorScheme(scheme: ChartColorScheme) {
  // biome-ignore lint/suspicious/noDocumentCookie: the spec keeps this preference in a strict same-site cookie.
  document.cookie = `${CHART_COLOR_COOKIE}=${scheme}; path=/; max-age=${ONE_YEAR_S}; samesite=strict`;
  notify();
}

export function useChartColorScheme(): ChartColorScheme {
  return useSyncExternalStore(subscribe, readChartColorScheme, readChartColorScheme);
}

/** "2030-01-15 12:00:00" in the chosen zone (the console's alert time format, yyyy-MM-dd HH:mm:ss). */
export function formatDateTime(value: string | Date, choice: TimeZoneChoice): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: choice === 'UTC' ? 'UTC' : browserTimeZone(),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(value));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/** Formats times in the user's display time zone: `const format = useFormatDateTime(); format(iso)`. */
export function useFormatDateTime(): (value: string | Date) => string {
  const choice = useTimeZone();
  return (value) => formatDateTime(value, choice);
}
