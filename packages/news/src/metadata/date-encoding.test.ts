import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeDate, encodeDate } from './date-encoding.ts';

describe('encodeDate', () => {
  it('encodes the shapes of real crawl and publish dates as integers and gives them back as written', () => {
    for (const s of [
      '1987-02-26T15:01:01.79',
      '2012-01-02T17:34:00+09:00',
      '2024-01-29T22:53:02.986279',
      '2024-01-30T14:13:12.269000+00:00',
      '1953-01-01T00:00:00Z',
      '2019-03-01T10:00:00.05-03:30',
      '9999-12-31T23:59:59+14:00',
    ]) {
      const e = encodeDate(s);
      expect(e, s).toBeDefined();
      expect(Number.isInteger(e!.seconds) && Number.isInteger(e!.form) && e!.form < 2 ** 31).toBe(true);
      expect(decodeDate(e!.seconds, e!.form)).toBe(s);
    }
  });

  it('leaves as text what it could not give back byte for byte', () => {
    for (const s of [
      '2019-02-30T00:00:00',
      '0999-01-01T00:00:00',
      '2019-03-01T10:00:00-00:00',
      '2019-03-01T10:00:00+05:07',
      '2019-03-01T10:00:00.1234567',
      '2019-03-01 10:00:00',
      '2019-03-01T10:00:00z',
      '2019-03-01',
      '',
    ]) {
      expect(encodeDate(s), s).toBeUndefined();
    }
  });

  it('round-trips every date it encodes (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
        fc.nat(6),
        fc.integer({ min: -56, max: 56 }),
        (d, digits, q) => {
          const m = Math.abs(q) * 15;
          const zone = `${q < 0 ? '-' : '+'}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
          const s = `${d.toISOString().slice(0, 19)}${
            digits
              ? `.${String(((d.getTime() % 1000) + 1000) % 1000)
                  .padStart(digits, '0')
                  .slice(0, digits)}`
              : ''
          }${q === 0 ? '' : zone}`;
          const e = encodeDate(s);
          expect(e).toBeDefined();
          expect(decodeDate(e!.seconds, e!.form)).toBe(s);
        },
      ),
    );
  });
});
