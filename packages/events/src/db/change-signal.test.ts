import { describe, expect, it } from 'vitest';
import { formatLsn, parseLsn } from './change-signal.ts';

describe('parseLsn', () => {
  it('orders WAL positions as PostgreSQL does and reads back what formatLsn writes', () => {
    expect(parseLsn('0/16B3748') < parseLsn('0/16B3749')).toBe(true);
    expect(parseLsn('0/FFFFFFFF') < parseLsn('1/0')).toBe(true);
    expect(formatLsn(parseLsn('16/B374D848'))).toBe('16/B374D848');
  });
  it('reads a malformed token as 0, which never waits', () => {
    for (const t of ['', 'abc', '1/2/3', '0/123456789', '-1/0']) expect(parseLsn(t)).toBe(0n);
  });
});
