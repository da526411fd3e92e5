import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

/** The `text` of every record of a shared corpus file (`<corpora>/<file>`, JSONL.gz), as UTF-8 articles. Test-only. */
export function readCorpusArticles(corpora: string, file: string): Buffer[] {
  return gunzipSync(readFileSync(path.join(corpora, file)))
    .toString('utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => Buffer.from((JSON.parse(line) as { text: string }).text, 'utf8'));
}

/**
 * A naive model of a shard for property tests: the text as a Buffer and linear scans for everything.
 * Test-only; the engine never imports it.
 */
export class ReferenceShard {
  readonly text: Buffer;
  readonly starts: number[] = [];

  constructor(readonly docs: readonly Uint8Array[]) {
    const parts: Uint8Array[] = [];
    let at = 0;
    for (const d of docs) {
      this.starts.push(at);
      parts.push(Uint8Array.of(0xff), d);
      at += 1 + d.length;
    }
    this.text = Buffer.concat(parts);
  }

  /** Every start position of `q` in the text, ascending (overlaps included). */
  positions(q: Uint8Array): number[] {
    const out: number[] = [];
    if (q.length === 0) return out;
    for (let i = this.text.indexOf(q); i !== -1; i = this.text.indexOf(q, i + 1)) out.push(i);
    return out;
  }

  /** Number of suffixes that sort before every suffix starting with `q`: the rank interval's lo. */
  ranksBelow(q: Uint8Array): number {
    let below = 0;
    for (let i = 0; i < this.text.length; i++) {
      if (Buffer.compare(this.text.subarray(i, i + q.length), q) < 0) below++;
    }
    return below;
  }

  /** The article holding text position `pos` (a separator belongs to the article after it). */
  docAt(pos: number): number {
    let doc = 0;
    while (doc + 1 < this.starts.length && (this.starts[doc + 1] as number) <= pos) doc++;
    return doc;
  }

  docStart(doc: number): number {
    return (this.starts[doc] as number) + 1;
  }

  docEnd(doc: number): number {
    return doc + 1 < this.starts.length ? (this.starts[doc + 1] as number) : this.text.length;
  }

  /** Non-overlapping left-to-right occurrences of q in bytes (how spans mark matches). */
  static nonOverlapping(bytes: Buffer, q: Uint8Array): number {
    let n = 0;
    for (let i = bytes.indexOf(q); i !== -1; i = bytes.indexOf(q, i + q.length)) n++;
    return n;
  }
}
