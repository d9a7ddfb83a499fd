import { ActionCancelledError } from '@/lib/api/action-required';
import { isApiError, serverMessage } from '@/lib/api/errors';

/**
 * What a failed setup call said: the server's message, or its first field error named by the
 * form's label for it (`labels`, by the wire's field path or its last part; else that last part in
 * words); nothing when the user cancelled.
 */
export function setupError(error: unknown, labels: Record<string, string> = {}): string | null {
  if (!error || error instanceof ActionCancelledError) return null;
  if (isApiError(error) && error.body && !error.detail && !error.body.message) {
    for (const [field, value] of Object.entries(error.body))
      if (Array.isArray(value) && typeof value[0] === 'string')
        return `${fieldLabel(field, labels)}: ${value[0]}`;
  }
  return serverMessage(error);
}

function fieldLabel(field: string, labels: Record<string, string>): string {
  const last = field.split('.').at(-1) ?? field;
  const words = last.replaceAll('_', ' ');
  return labels[field] ?? labels[last] ?? words.charAt(0).toUpperCase() + words.slice(1);
}

/** Comma- or space-separated instance types, as typed. */
export const typeList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);

/** What is wrong with the first bad S3 bucket name of a list (AWS's naming rules), or null. */
export function bucketProblem(buckets: readonly string[]): string | null {
  if (new Set(buckets).size !== buckets.length) return 'Name each bucket once.';
  for (const b of buckets) {
    if (b.length < 3 || b.length > 63) return `${b}: a bucket name has 3 to 63 characters.`;
    if (!/^[a-z0-9][a-z0-9.-]*[a-z0-9]$/.test(b))
      return `${b}: a bucket name has lowercase letters, digits, dots and hyphens, and starts and ends with a letter or digit.`;
    if (b.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(b))
      return `${b}: a bucket name has no two dots in a row and is not an IP address.`;
  }
  return null;
}
