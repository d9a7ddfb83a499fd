import { describe, expect, it } from 'vitest';

import { formatBytes, formatMemoryMib, MIB } from '@/lib/format';

describe('the console’s one byte formatter', () => {
  it('says sizes in binary units with one decimal above bytes, and "—" for nothing', () => {
    expect(formatBytes(undefined)).toBe('—');
    expect(formatBytes(0)).toBe('—');
    expect(formatBytes(12)).toBe('12 B');
    expect(formatBytes(2048)).toBe('2.0 KiB');
    expect(formatBytes(340.5 * MIB)).toBe('340.5 MiB');
    expect(formatBytes(1.2 * 1024 * MIB)).toBe('1.2 GiB');
  });

  it('says rates and negative values, and a chosen empty value', () => {
    expect(formatBytes(3 * MIB, { perSecond: true })).toBe('3.0 MiB/s');
    expect(formatBytes(-2048)).toBe('-2.0 KiB');
    expect(formatBytes(0, { empty: '0 B' })).toBe('0 B');
  });

  it('says a machine’s memory (MiB in the catalogue) in whole GiB, or MiB below one', () => {
    expect(formatMemoryMib(16_384)).toBe('16 GiB');
    expect(formatMemoryMib(3_840)).toBe('4 GiB');
    expect(formatMemoryMib(512)).toBe('512 MiB');
  });
});
