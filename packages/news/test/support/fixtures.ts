import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';

/** A small made-up article (no third-party text); fields can be overridden or removed with undefined. */
export function article(n: number, warcDate: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    text: `Synthetic article ${n}: Grüße aus Köln, 東京のニュース ${n}.`,
    url: `https://site-${n % 3}.synthetic.example/a/${n}`,
    title: `SYNTHETIC title ${n}`,
    hostname: `site-${n % 3}.synthetic.example`,
    sitename: 'Synthetic (SYNTHETIC)',
    language: 'de',
    warc_date: warcDate,
    ...extra,
  };
}

export function writeJsonl(path: string, records: readonly unknown[], rawLines: Record<number, string> = {}): string {
  const lines = records.map((r, i) => rawLines[i + 1] ?? JSON.stringify(r));
  const text = lines.join('\n') + '\n';
  writeFileSync(path, path.endsWith('.gz') ? gzipSync(text) : text);
  return path;
}

export function tempDir(prefix: string): { dir: string; cleanup: () => void; fresh: () => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let n = 0;
  // A new empty folder per test case, inside the temp folder.
  const fresh = (): string => {
    const sub = join(dir, `case-${n++}`);
    mkdirSync(sub);
    return sub;
  };
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }), fresh };
}

/** Entries of a folder (to check that a failed build left nothing behind). */
export const entries = (dir: string): string[] => readdirSync(dir).sort();

/** Arbitrary short texts (any bytes that survive as a JS string) with a crawl year in [2019, lastYear] and a month. */
export const datedTextArb = (lastYear: number): fc.Arbitrary<{ text: string; year: number; month: number }> =>
  fc.record({
    text: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
    year: fc.integer({ min: 2019, max: lastYear }),
    month: fc.integer({ min: 1, max: 12 }),
  });
