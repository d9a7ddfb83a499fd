/**
 * Money and credits are kept in millionths (micro-credits, micro-dollars) and summed as integers
 * (BigInt here, numeric in SQL). They become the wire's decimal once, at the end, here.
 */
export const MICRO = 1_000_000n;

/** An integer amount as read from SQL (bigint and numeric arrive as strings) or a JS integer. */
export const toMicro = (value: string | number | bigint | null | undefined): bigint =>
  value === null || value === undefined ? 0n : BigInt(typeof value === 'number' ? Math.trunc(value) : value);

/** Half away from zero, to a multiple of `unit`. */
function roundTo(micro: bigint, unit: bigint): bigint {
  const negative = micro < 0n;
  const magnitude = negative ? -micro : micro;
  const rounded = ((magnitude + unit / 2n) / unit) * unit;
  return negative ? -rounded : rounded;
}

/**
 * Millionths as the decimal on the wire, rounded (half away from zero) to `places` decimals: the
 * exact decimal written out, then read as the nearest JSON number once.
 */
export function decimal(micro: bigint, places = 6): number {
  const rounded = roundTo(micro, 10n ** BigInt(6 - places));
  const negative = rounded < 0n;
  const magnitude = negative ? -rounded : rounded;
  const whole = magnitude / MICRO;
  const fraction = (magnitude % MICRO).toString().padStart(6, '0');
  return Number(`${negative ? '-' : ''}${whole}.${fraction}`);
}

/** Credits and dollars as the usage summaries show them: two decimals. */
export const cents = (micro: bigint | number) => decimal(toMicro(micro), 2);

/**
 * How far `used` is through `limit` (same units), in percent floored to two decimals, so that
 * anything short of the limit never reads 100%; null without a limit, 100 for a limit of 0
 * (it allows nothing).
 */
export function percentFloor(used: bigint, limit: bigint | null): number | null {
  if (limit === null) return null;
  if (limit <= 0n) return 100;
  const hundredths = (used * 10_000n) / limit;
  return Number(hundredths) / 100;
}
