import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';

/** The shared real corpora (never copied into the repository): `../shared/corpora` beside the repo root. */
export const CORPORA_DIR = fileURLToPath(new URL('../../../../../shared/corpora', import.meta.url));

export function corpusFiles(): string[] {
  return readdirSync(CORPORA_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((d) =>
      readdirSync(join(CORPORA_DIR, d))
        .filter((f) => f.endsWith('.jsonl.gz'))
        .map((f) => join(CORPORA_DIR, d, f)),
    );
}

/** Reads a .jsonl.gz directly (independently of the builder's reader), for reference computations. */
export function readJsonlGz(path: string): Record<string, unknown>[] {
  return gunzipSync(readFileSync(path))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Deterministic draws for test queries: the synthetic generator's mulberry32. */
export { createRandom as seededRandom } from '../../src/corpus/synthetic.ts';

/** Overlapping occurrences of `needle` in `hay` by plain scanning: the reference the index must match. */
export function bruteCount(hay: Buffer, needle: Buffer): number {
  if (needle.length === 0) return hay.length;
  let n = 0;
  for (let i = hay.indexOf(needle); i !== -1; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

/**
 * A brute-force reference made fast enough for hundreds of queries: every text position is bucketed by a hash of its
 * next three bytes, and a query is compared byte by byte at every position of its bucket (queries under three bytes:
 * a plain scan). Knows nothing of suffix arrays; positions are into `text`.
 */
export class BucketScan {
  private static readonly BITS = 20;
  private readonly starts: Int32Array;
  private readonly positions: Int32Array;

  constructor(readonly text: Buffer) {
    const buckets = 1 << BucketScan.BITS;
    const counts = new Int32Array(buckets);
    const n = Math.max(0, text.length - 2);
    const keys = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const k =
        Math.imul(
          ((text[i] as number) << 16) | ((text[i + 1] as number) << 8) | (text[i + 2] as number),
          0x9e3779b1,
        ) >>>
        (32 - BucketScan.BITS);
      keys[i] = k;
      counts[k]! += 1;
    }
    this.starts = new Int32Array(buckets + 1);
    for (let k = 0; k < buckets; k++) this.starts[k + 1] = (this.starts[k] as number) + (counts[k] as number);
    this.positions = new Int32Array(n);
    const fill = this.starts.slice(0, buckets);
    for (let i = 0; i < n; i++) this.positions[fill[keys[i] as number]!++] = i;
  }

  /** Every start position of `needle` (overlapping), ascending. */
  occurrences(needle: Buffer): number[] {
    const out: number[] = [];
    if (needle.length < 3) {
      for (let i = this.text.indexOf(needle); i !== -1; i = this.text.indexOf(needle, i + 1)) out.push(i);
      return out;
    }
    const key =
      Math.imul(((needle[0] as number) << 16) | ((needle[1] as number) << 8) | (needle[2] as number), 0x9e3779b1) >>>
      (32 - BucketScan.BITS);
    const end = this.starts[key + 1] as number;
    const t = this.text;
    for (let k = this.starts[key] as number; k < end; k++) {
      const p = this.positions[k] as number;
      if (p + needle.length > t.length) continue;
      let j = 0;
      while (j < needle.length && t[p + j] === needle[j]) j++;
      if (j === needle.length) out.push(p);
    }
    return out;
  }
}

/**
 * Every `every`-th article of each shared corpus, written under `dir` with the corpus file's own name: real text,
 * dates and sources at a fraction of the build cost, for tests whose point is not the corpora's size.
 */
export function corpusSample(dir: string, every: number, files: readonly string[] = corpusFiles()): string[] {
  return files.map((file) => {
    const kept = readJsonlGz(file).filter((_, i) => i % every === 0);
    const out = join(dir, basename(file));
    writeFileSync(out, gzipSync(kept.map((r) => JSON.stringify(r)).join('\n') + '\n'));
    return out;
  });
}
