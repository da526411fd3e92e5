import type { DocValues, V2Row } from './doc-encoding.ts';

/**
 * The uncompressed bytes of a block of `docs` rows (store format 3): the DocValues of its rows column by column (all
 * titles, then all urls, …: like values side by side compress ~4 % better on the real corpora than row by row), each
 * value a tag byte then its payload. Values are not indexed (an offset table would not compress): the reader finds
 * them in one pass (valueStarts). Tags:
 * 0 null; 1 text (varint byte length, UTF-8); 2 integer ≥ 0 (varint); 3 integer < 0 (varint of its magnitude);
 * 4 bytes (varint length, bytes); 5 64-bit integer (8 bytes LE, two's complement).
 */
const Tag = { Null: 0, Text: 1, Uint: 2, Negative: 3, Bytes: 4, Int64: 5 } as const;

/** Collects rows of `columns` values; `bytes()` is the block. */
export class RowBlockWriter {
  readonly #columns: ValueWriter[];
  rows = 0;

  constructor(readonly columns: number) {
    this.#columns = Array.from({ length: columns }, () => new ValueWriter());
  }

  append(doc: DocValues): void {
    if (doc.length !== this.columns)
      throw new RangeError(`a row of ${doc.length} values in a block of ${this.columns} columns`);
    doc.forEach((v, c) => this.#columns[c]!.append(v));
    this.rows++;
  }

  bytes(): Buffer {
    return Buffer.concat(this.#columns.map((c) => c.bytes()));
  }
}

/** One column's values, encoded as they come. */
class ValueWriter {
  #buf = Buffer.allocUnsafe(1 << 10);
  #at = 0;

  append(v: DocValues[number]): void {
    if (v === null) this.#byte(Tag.Null);
    else if (typeof v === 'string') {
      const n = Buffer.byteLength(v);
      this.#byte(Tag.Text);
      this.#varint(n);
      this.#room(n);
      this.#at += this.#buf.write(v, this.#at, 'utf8');
    } else if (typeof v === 'number') {
      if (!Number.isSafeInteger(v)) throw new RangeError(`a docs value ${v} is not a safe integer`);
      this.#byte(v < 0 ? Tag.Negative : Tag.Uint);
      this.#varint(Math.abs(v));
    } else if (typeof v === 'bigint') {
      this.#byte(Tag.Int64);
      this.#room(8);
      this.#at = this.#buf.writeBigInt64LE(BigInt.asIntN(64, v), this.#at);
    } else {
      this.#byte(Tag.Bytes);
      this.#varint(v.length);
      this.#room(v.length);
      this.#at += v.copy(this.#buf, this.#at);
    }
  }

  bytes(): Buffer {
    return this.#buf.subarray(0, this.#at);
  }

  #room(n: number): void {
    if (this.#at + n <= this.#buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#at + n));
    this.#buf.copy(bigger, 0, 0, this.#at);
    this.#buf = bigger;
  }

  #byte(b: number): void {
    this.#room(1);
    this.#buf[this.#at++] = b;
  }

  // Arithmetic, not bit operations: seconds since 1000 AD and form codes exceed 32 bits.
  #varint(n: number): void {
    this.#room(8);
    while (n >= 128) {
      this.#buf[this.#at++] = (n % 128) + 128;
      n = Math.floor(n / 128);
    }
    this.#buf[this.#at++] = n;
  }
}

/** Thrown when a block's bytes do not parse: the reader names the file. */
export class RowBlockError extends Error {
  override readonly name = 'RowBlockError';
}

/** A read position in a block. */
class Cursor {
  at = 0;
  constructor(readonly block: Buffer) {}

  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.block[this.at++];
      if (b === undefined) throw new RowBlockError('a block ends inside a value');
      n += (b & 127) * scale;
      if (b < 128) return n;
      scale *= 128;
    }
  }

  skip(): void {
    const tag = this.block[this.at++];
    if (tag === Tag.Text || tag === Tag.Bytes) {
      const n = this.varint(); // not `at += varint()`: that adds to the offset from before the length was read
      this.at += n;
    } else if (tag === Tag.Uint || tag === Tag.Negative) this.varint();
    else if (tag === Tag.Int64) this.at += 8;
    else if (tag !== Tag.Null) throw new RowBlockError(`a block holds the unknown tag ${String(tag)}`);
  }
}

/** Where each value of a block starts, column by column: value (column c, row r) at index c × rows + r. */
export interface ValueStarts {
  readonly rows: number;
  readonly at: Uint32Array;
}

/**
 * Where each value of a block of `rows` rows of `columns` values starts: one pass over the block, so reading every
 * row of a block (a page, a filtered scan) costs one pass. Throws when the block holds fewer values or more bytes.
 */
export function valueStarts(block: Buffer, columns: number, rows: number): ValueStarts {
  const at = new Uint32Array(rows * columns);
  const c = new Cursor(block);
  for (let k = 0; k < at.length; k++) {
    at[k] = c.at;
    c.skip();
  }
  if (c.at !== block.length)
    throw new RowBlockError(`a block of ${rows} rows holds ${block.length} bytes, its values ${c.at}`);
  return { rows, at };
}

/**
 * Row `row` of a block as the v2 reader's row shape (decodeArticle's input): the profile id first, the 64-bit
 * integer as its unsigned decimal text (as v2 stores print it).
 * @example readRow(block, valueStarts(block, 10, 16), 3, profileId)
 */
export function readRow(block: Buffer, starts: ValueStarts, row: number, profile: number): V2Row {
  const columns = starts.at.length / starts.rows;
  const c = new Cursor(block);
  const out: V2Row = new Array<V2Row[number]>(columns + 1);
  out[0] = profile;
  for (let k = 1; k <= columns; k++) {
    c.at = starts.at[(k - 1) * starts.rows + row]!;
    const tag = block[c.at++];
    switch (tag) {
      case Tag.Null:
        out[k] = null;
        break;
      case Tag.Text: {
        const n = c.varint();
        out[k] = block.toString('utf8', c.at, c.at + n);
        c.at += n;
        break;
      }
      case Tag.Uint:
        out[k] = c.varint();
        break;
      case Tag.Negative:
        out[k] = -c.varint();
        break;
      case Tag.Bytes: {
        const n = c.varint();
        out[k] = Buffer.from(block.subarray(c.at, c.at + n));
        c.at += n;
        break;
      }
      case Tag.Int64:
        out[k] = block.readBigUInt64LE(c.at).toString();
        c.at += 8;
        break;
      default:
        throw new RowBlockError(`a block holds the unknown tag ${String(tag)}`);
    }
  }
  if (c.at > block.length) throw new RowBlockError('a block ends inside a value');
  return out;
}
