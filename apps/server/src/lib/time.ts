/**
 * Wire timestamps: ISO 8601 with microseconds and an explicit `+00:00` offset, never `Z`, so that
 * Python's `datetime.fromisoformat` reads them on every version.
 */
export function isoTime(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000+00:00`;
}

export const isoTimeOrNull = (date: Date | null | undefined): string | null => (date ? isoTime(date) : null);

export const minutes = (n: number) => n * 60_000;
export const hours = (n: number) => n * 3_600_000;
export const days = (n: number) => n * 86_400_000;
