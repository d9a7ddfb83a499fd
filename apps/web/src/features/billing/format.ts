// How the Billing page and the usage banners write numbers.

/**
 * Percentages are shown with 1 decimal, rounded down so that short of a limit never reads 100%:
 * 92.46 -> "92.4%", 99.99 -> "99.9%". (The server floors them to 2 decimals; the epsilon keeps a
 * decimal like 80.3, whose double is a hair under it, at 80.3.)
 */
export const formatPercent = (value: number) => `${(Math.floor(value * 10 + 1e-7) / 10).toFixed(1)}%`;

const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const credits = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** 12345 -> "12,345"; credits keep up to 2 decimals (12.5 -> "12.5"). */
export const formatCount = (value: number) => whole.format(value);
export const formatCredits = (value: number) => credits.format(value);

/** Dollars: 12.5 -> "$12.50". */
export const formatDollars = (value: number, currency = 'usd') =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency: currency.toUpperCase() }).format(value);

/** Stripe amounts are in cents: 4900 -> "$49.00". */
export const formatCents = (cents: number, currency = 'usd') => formatDollars(cents / 100, currency);

/**
 * A day of the plan's calendar ("August 1, 2026"). Months renew at midnight UTC, so the day is
 * read in UTC: in a zone west of it the 1st would otherwise show as the last of the month.
 */
export const formatDay = (value: string | Date) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(value));
