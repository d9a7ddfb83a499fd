import { ActionCancelledError } from '@/lib/api/action-required';
import { isApiError, serverMessage } from '@/lib/api/errors';

/** What a failed setup call said: the server's message, or its first field error; nothing when the user cancelled. */
export function setupError(error: unknown): string | null {
  if (!error || error instanceof ActionCancelledError) return null;
  if (isApiError(error) && error.body && !error.detail && !error.body.message) {
    for (const [field, value] of Object.entries(error.body))
      if (Array.isArray(value) && typeof value[0] === 'string')
        return `${field.replaceAll('_', ' ')}: ${value[0]}`;
  }
  return serverMessage(error);
}

/** Comma- or space-separated instance types, as typed. */
export const typeList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((t) => t.trim())
    .filter(Boolean);
