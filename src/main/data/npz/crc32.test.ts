import { describe, expect, it } from 'vitest';
import { crc32, crc32Table } from './crc32';

describe('crc32', () => {
  it("is zip's CRC-32: the check value of '123456789', and the table loop's for any bytes, whole or continued", () => {
    const ascii = new TextEncoder().encode('123456789');
    expect(crc32(ascii)).toBe(0xcbf43926);
    expect(crc32Table(ascii)).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
    const bytes = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 2654435761) >>> 24);
    const whole = crc32Table(bytes);
    expect(crc32(bytes)).toBe(whole);
    // a running CRC over pieces, as zip.ts checks a member read in parts
    expect(crc32(bytes.subarray(40_000), crc32(bytes.subarray(0, 40_000)))).toBe(whole);
    expect(crc32(bytes.subarray(7), crc32Table(bytes.subarray(0, 7)))).toBe(whole);
  });
});
