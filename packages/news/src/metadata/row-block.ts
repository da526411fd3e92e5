import type { DocValues, V2Row } from './doc-encoding.ts';

/**
 * The uncompressed bytes of a block of `docs` rows (store format 3): the DocValues of each row one after another, each
 * value a tag byte then its payload. Rows are not indexed: reading row k skips k rows, a few tag bytes and lengths
 * each, cheaper than an offset table that zstd could not compress. Tags:
 * 0 null; 1 text (varint byte length, UTF-8); 2 integer ≥ 0 (varint); 3 integer < 0 (varint of its magnitude);
 * 4 bytes (varint length, bytes); 5 64-bit integer (8 bytes LE, two's complement).
 */
const Tag = { Null: 0, Text: 1, Uint: 2, Negative: 3, Bytes: 4, Int64: 5 } as const;

/** Grows as rows are appended; `bytes()` is the block. */
export class RowBlockWriter {
  #buf = Buffer.allocUnsafe(1 << 14);
  #at = 0;
  rows = 0;

  get length(): number {
    return this.#at;
  }

  append(doc: DocValues): void {
    for (const v of doc) {
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
    this.rows++;
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

/**
 * Row `row` of a block as the v2 reader's row shape (decodeArticle's input): the profile id first, the 64-bit
 * integer as its unsigned decimal text (as v2 stores print it).
 * @example readRow(block, columns, 3, profileId)
 */
export function readRow(block: Buffer, columns: number, row: number, profile: number): V2Row {
  let at = 0;
  const varint = (): number => {
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = block[at++];
      if (b === undefined) throw new RowBlockError('a block ends inside a value');
      n += (b & 127) * scale;
      if (b < 128) return n;
      scale *= 128;
    }
  };
  const skip = (): void => {
    const tag = block[at++];
    if (tag === Tag.Text || tag === Tag.Bytes) {
      const n = varint(); // not `at += varint()`: that adds to the offset from before the length was read
      at += n;
    }
    else if (tag === Tag.Uint || tag === Tag.Negative) varint();
    else if (tag === Tag.Int64) at += 8;
    else if (tag !== Tag.Null) throw new RowBlockError(`a block holds the unknown tag ${String(tag)}`);
  };
  for (let k = 0, n = row * columns; k < n; k++) skip();
  const out: V2Row = new Array<V2Row[number]>(columns + 1);
  out[0] = profile;
  for (let c = 1; c <= columns; c++) {
    const tag = block[at++];
    switch (tag) {
      case Tag.Null: out[c] = null; break;
      case Tag.Text: { const n = varint(); out[c] = block.toString('utf8', at, at + n); at += n; break; }
      case Tag.Uint: out[c] = varint(); break;
      case Tag.Negative: out[c] = -varint(); break;
      case Tag.Bytes: { const n = varint(); out[c] = Buffer.from(block.subarray(at, at + n)); at += n; break; }
      case Tag.Int64: out[c] = block.readBigUInt64LE(at).toString(); at += 8; break;
      default: throw new RowBlockError(`a block holds the unknown tag ${String(tag)}`);
    }
  }
  if (at > block.length) throw new RowBlockError('a block ends inside a value');
  return out;
}
