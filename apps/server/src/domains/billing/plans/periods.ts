import { isoTime } from '../../../lib/time.js';

// A plan's credits and every usage limit run by calendar month (UTC), whatever the billing period.

/** The first instant of this month (UTC): where this month's usage starts counting. */
export const monthStart = (now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
/** When this month's limits reset: the first day of the next month, as YYYY-MM-DD. */
export const renewDate = (now = new Date()) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
/** When credits renew and limits reset (the 1st of next month, UTC), as a wire timestamp (`renew_date`). */
export const creditsRenewAt = (now = new Date()) => isoTime(new Date(`${renewDate(now)}T00:00:00Z`));
