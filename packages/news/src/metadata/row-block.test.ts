import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DocValues } from './doc-encoding.ts';
import { readRow, RowBlockWriter, valueStarts } from './row-block.ts';

// Every value kind a docs row holds: text (any Unicode), safe integers of both signs, bytes, 64-bit integers, null.
const value = fc.oneof(
  fc.constant(null),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.maxSafeInteger().map((n) => n),
  fc.integer({ min: -1, max: 300 }),
  fc.uint8Array({ maxLength: 20 }).map((b) => Buffer.from(b)),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
);
// What readRow gives back for a value: the same, a 64-bit integer as its unsigned decimal text.
const expected = (v: DocValues[number]) => (typeof v === 'bigint' ? BigInt.asUintN(64, v).toString() : v);

describe('row blocks', () => {
  it('give back every row of a block, value for value (property)', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 6 })
          .chain((columns) =>
            fc.tuple(
              fc.constant(columns),
              fc.array(fc.array(value, { minLength: columns, maxLength: columns }), { minLength: 1, maxLength: 40 }),
            ),
          ),
        ([columns, rows]) => {
          const writer = new RowBlockWriter(columns);
          rows.forEach((r) => writer.append(r));
          expect(writer.rows).toBe(rows.length);
          const block = Buffer.from(writer.bytes());
          const starts = valueStarts(block, columns, rows.length);
          rows.forEach((r, i) => expect(readRow(block, starts, i, i + 7)).toEqual([i + 7, ...r.map(expected)]));
        },
      ),
    );
  });

  it('refuses a block with fewer values or more bytes than its rows, a row of another width and a value that is not a safe integer', () => {
    const writer = new RowBlockWriter(2);
    writer.append(['a', 1]);
    expect(() => valueStarts(writer.bytes(), 2, 2)).toThrow(/unknown tag undefined/);
    expect(() => valueStarts(Buffer.concat([writer.bytes(), Buffer.from([0])]), 2, 1)).toThrow(
      /a block of 1 rows holds 6 bytes, its values 5/,
    );
    expect(() => valueStarts(writer.bytes().subarray(0, 1), 2, 1)).toThrow(/ends inside a value/);
    expect(() => writer.append([1.5, 2])).toThrow(/not a safe integer/);
    expect(() => writer.append([1])).toThrow(/a row of 1 values in a block of 2 columns/);
  });
});
