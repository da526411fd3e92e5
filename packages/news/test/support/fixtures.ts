import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

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

export function tempDir(prefix: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Entries of a folder (to check that a failed build left nothing behind). */
export const entries = (dir: string): string[] => readdirSync(dir).sort();
