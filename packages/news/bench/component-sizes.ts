/**
 * Bytes per text byte of a built release, per component of the compressed kind (issue 24 item 3): where the bytes
 * are decides what to shrink next, so `bench:compressed` and `bench:scale` print the same table for every data set.
 */
import { createReadStream, createWriteStream, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { buildInChild } from './index-bench-measure.ts';

export const COMPONENTS = [
  'wavelet',
  'text',
  'samples',
  'doc table',
  'metadata',
  'headlines',
  'word counts',
  'stories',
  'other',
] as const;
export type Component = (typeof COMPONENTS)[number];

/** What each component holds, as printed under the table. */
export const COMPONENT_FILES: Record<Component, string> = {
  wavelet: '`fm-*` (wavelet bits, symbol counts)',
  text: '`text*` (zstd blocks, block offsets, dictionary)',
  samples: '`sa-*` (SA samples and their marks)',
  'doc table': '`docs.gaps` (format 7) or `docs.u64` (article starts)',
  metadata: 'the per-year `*.sqlite` metadata stores',
  headlines: "every file of the shards' `titles/` headline indexes",
  'word counts': '`*.nwc` word-count tables',
  stories: '`*.stories` story files',
  other: '`header.json` and the two manifests',
};

export interface ReleaseSizes {
  readonly textBytes: number;
  readonly shards: number;
  readonly bytes: Record<Component, number>;
}

function componentOf(file: string, dir: string): Component {
  if (dir.split(/[\\/]/).includes('titles')) return 'headlines';
  if (file.endsWith('.nwc')) return 'word counts';
  if (file.endsWith('.stories')) return 'stories';
  if (file.startsWith('fm-')) return 'wavelet';
  if (file.startsWith('text')) return 'text';
  if (file.startsWith('sa-')) return 'samples';
  if (file === 'docs.u64' || file === 'docs.gaps') return 'doc table';
  if (file.endsWith('.sqlite')) return 'metadata';
  return 'other';
}

/** Walks a release folder (every file counts, so nothing is left out of the total) and sums bytes per component. */
export function releaseSizes(release: string): ReleaseSizes {
  const bytes = Object.fromEntries(COMPONENTS.map((c) => [c, 0])) as Record<Component, number>;
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      if (e.isDirectory()) walk(path);
      else bytes[componentOf(e.name, dir)] += statSync(path).size;
    }
  };
  walk(release);
  const manifest = JSON.parse(readFileSync(join(release, 'index-manifest.json'), 'utf8')) as {
    indexes: { shards: { text_bytes: number }[] }[];
  };
  const shards = manifest.indexes.flatMap((ix) => ix.shards);
  return { textBytes: shards.reduce((s, sh) => s + sh.text_bytes, 0), shards: shards.length, bytes };
}

/** A Markdown table, one row per data set, columns in bytes per text byte. */
export function sizeTable(rows: readonly { name: string; sizes: ReleaseSizes }[]): string[] {
  const bb = (n: number, s: ReleaseSizes): string => (n / s.textBytes).toFixed(3);
  const total = (s: ReleaseSizes): number => COMPONENTS.reduce((sum, c) => sum + s.bytes[c], 0);
  return [
    `| data set | text | shards | ${COMPONENTS.join(' | ')} | **all files** |`,
    `|---|---|---|${COMPONENTS.map(() => '---|').join('')}---|`,
    ...rows.map(
      ({ name, sizes: s }) =>
        `| ${name} | ${(s.textBytes / 1e6).toFixed(1)} MB | ${s.shards} | ${COMPONENTS.map((c) => bb(s.bytes[c], s)).join(' | ')} | **${bb(total(s), s)}** |`,
    ),
    '',
    `Bytes per text byte. ${COMPONENTS.map((c) => `${c}: ${COMPONENT_FILES[c]}`).join('; ')}.`,
  ];
}

/**
 * Copies JSON-lines corpora into one, every `warc_date` moved into `month` (YYYY-MM, the day and time kept, days past
 * 28 set to 28 so every month is valid): the real text as one crawl month, as an archive of one month's news would
 * be built. Other fields, `publish_date` included, stay as they were.
 */
export async function oneMonthCorpus(inputs: readonly string[], out: string, month: string): Promise<void> {
  const gzip = createGzip({ level: 1 });
  const done = pipeline(gzip, createWriteStream(out));
  for (const file of inputs) {
    const lines = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.length === 0) continue;
      const rec = JSON.parse(line) as Record<string, unknown>;
      const day = typeof rec['warc_date'] === 'string' ? /^\d{4}-\d{2}-(\d{2})(.*)$/.exec(rec['warc_date']) : null;
      rec['warc_date'] = day
        ? `${month}-${String(Math.min(Number(day[1]), 28)).padStart(2, '0')}${day[2]}`
        : `${month}-01`;
      if (!gzip.write(`${JSON.stringify(rec)}\n`)) await new Promise((r) => gzip.once('drain', r));
    }
  }
  gzip.end();
  await done;
}

/**
 * Builds whole releases with `news build --kind compressed` under `root` (metadata stores included) and measures
 * them: the real corpora as released (monthly shards), the same text as one crawl month, and a synthetic corpus when
 * given.
 */
export async function releaseSets(
  root: string,
  corpora: string[],
  synthetic: string | undefined,
  log: (msg: string) => void,
): Promise<{ name: string; sizes: ReleaseSizes }[]> {
  mkdirSync(root, { recursive: true });
  const oneMonth = join(root, 'one-month.jsonl.gz');
  await oneMonthCorpus(corpora, oneMonth, '2024-03');
  const sets: [string, string[]][] = [
    ['real corpora as released (monthly shards)', corpora],
    ['real corpora as one crawl month', [oneMonth]],
  ];
  if (synthetic) sets.push(['synthetic month (`news demo-corpus --month`)', [synthetic]]);
  return sets.map(([name, inputs], i) => {
    log(`release ${name}: building`);
    const out = join(root, `release-${i}`);
    buildInChild(inputs, out, `bench-sizes-${i}`, ['--kind', 'compressed']);
    return { name, sizes: releaseSizes(out) };
  });
}
