/**
 * Support for the v2 end-to-end suites: releases built with the real builder, the worker and the gateway as real
 * `news` processes on 127.0.0.1, and a brute-force oracle that scans the built release's article texts and
 * metadata stores (never the suffix arrays).
 */
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildRelease, openRelease } from '../src/release/index.ts';
import type { ArticleMetadata } from '../src/release/index.ts';
import { filterKey, planPages, QueryTotals, type DocumentFilters, type FindResult } from '../src/search-v2/index.ts';
import { caseFold } from 'unicode-case-folding';
import { spawnNews, type NewsProcess } from './e2e-processes.ts';
import { OPERATOR_ENV, post, type AnyJson } from './gateway-harness.ts';

/** The real corpora beside the repository (read in place, never copied into it). */
export const CORPORA = fileURLToPath(new URL('../../../../shared/corpora', import.meta.url));

export function corpusFiles(): string[] {
  return readdirSync(CORPORA, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) =>
      readdirSync(join(CORPORA, d.name))
        .filter((f) => f.endsWith('.jsonl.gz'))
        .map((f) => join(CORPORA, d.name, f)),
    )
    .sort();
}

export interface BuiltRelease {
  readonly dir: string;
  readonly version: string;
  cleanup(): Promise<void>;
}

/** Builds a release with the real builder into a temp dir. `records` are written as JSONL (our own test text). */
export async function buildV2Release(
  version: string,
  sources: {
    inputs?: readonly string[];
    records?: readonly Record<string, unknown>[];
    countriesCsv?: string;
    partBytes?: number;
    wordCounts?: boolean;
  },
): Promise<BuiltRelease> {
  const root = await mkdtemp(join(tmpdir(), 'v2-e2e-'));
  const inputs = [...(sources.inputs ?? [])];
  if (sources.records !== undefined) {
    const file = join(root, 'records.jsonl');
    await writeFile(file, sources.records.map((r) => JSON.stringify(r)).join('\n') + '\n');
    inputs.push(file);
  }
  let countries: string | undefined;
  if (sources.countriesCsv !== undefined) {
    countries = join(root, 'countries.csv');
    await writeFile(countries, sources.countriesCsv);
  }
  const dir = join(root, 'release');
  await buildRelease({
    inputs,
    out: dir,
    indexVersion: version,
    countries,
    concurrency: 2,
    partBytes: sources.partBytes,
    wordCounts: sources.wordCounts,
  });
  return { dir, version, cleanup: () => rm(root, { recursive: true, force: true }) };
}

export interface V2Processes {
  readonly url: string;
  readonly workerUrl: string;
  readonly worker: NewsProcess;
  readonly gateway: NewsProcess;
  stop(): Promise<void>;
}

export async function startWorkerProcess(release: BuiltRelease, port = 0): Promise<{ proc: NewsProcess; url: string }> {
  const proc = spawnNews([
    'worker',
    '--release',
    release.dir,
    '--index-version',
    release.version,
    '--port',
    String(port),
    '--verify',
    'sizes',
  ]);
  return { proc, url: await proc.listening };
}

export async function startGatewayProcess(
  workerUrl: string,
  indexVersion: string,
): Promise<{ proc: NewsProcess; url: string }> {
  const proc = spawnNews(['gateway', '--port', '0'], {
    ...OPERATOR_ENV,
    GATEWAY_INDEX_VERSION: indexVersion,
    GATEWAY_WORKER_URL: workerUrl,
  });
  return { proc, url: await proc.listening };
}

/** A worker on `release` and a gateway configured for it, as separate `news` processes. */
export async function startV2Processes(release: BuiltRelease): Promise<V2Processes> {
  const worker = await startWorkerProcess(release);
  const gateway = await startGatewayProcess(worker.url, release.version);
  return {
    url: gateway.url,
    workerUrl: worker.url,
    worker: worker.proc,
    gateway: gateway.proc,
    stop: async () => {
      await gateway.proc.stop();
      await worker.proc.stop();
    },
  };
}

export async function v2(
  url: string,
  path: string,
  body: unknown,
): Promise<{ status: number; body: AnyJson; headers: Headers }> {
  return post(`${url}/api/v2/${path}`, body);
}

/** Every article of a built release: its stored text and the metadata store's row. */
export interface ScannedArticle {
  readonly year: string;
  readonly docIx: number;
  readonly text: Buffer;
  readonly meta: ArticleMetadata;
}

/** Reads every article's bytes (documentBytes) and metadata row (the year store) of a built release. */
export async function scanRelease(release: BuiltRelease, indexName = 'news'): Promise<ScannedArticle[]> {
  const open = await openRelease(release.dir, { mode: 'disk', expectedIndexVersion: release.version, verify: 'sizes' });
  try {
    const index = open.indexes.get(indexName);
    if (index === undefined) throw new Error(`release has no index ${indexName}`);
    return index.shards.flatMap((shard) => {
      const store = index.metadata(shard.year);
      return Array.from({ length: shard.reader.stats.docCount }, (_, doc) => {
        const meta = store?.get(shard.docBase + doc);
        if (meta === undefined) throw new Error(`no metadata row for ${shard.year}/${shard.docBase + doc}`);
        return { year: shard.year, docIx: shard.docBase + doc, text: shard.reader.documentBytes(doc), meta };
      });
    });
  } finally {
    open.close();
  }
}

export function bruteOccurrences(text: Buffer, query: Buffer): number {
  let n = 0;
  for (let i = text.indexOf(query); i !== -1; i = text.indexOf(query, i + 1)) n++;
  return n;
}

/** The filter rule of the spec, written independently of the domain's compileFilters. */
export function passesFilters(meta: ArticleMetadata, f: DocumentFilters): boolean {
  const rules: [readonly string[] | null | undefined, (string | null)[]][] = [
    [f.languages, [meta.language]],
    [f.commonlingua_languages, [meta.lang]],
    [f.topics, meta.iptc_topic === null ? [] : meta.iptc_topic.split(';').map((t) => t.trim())],
    [f.sources, [meta.hostname, meta.sitename]],
    [f.countries, [meta.country]],
  ];
  return rules.every(
    ([wanted, labels]) =>
      !wanted ||
      wanted.length === 0 ||
      wanted.some((w) => labels.some((l) => l !== null && filterKey(l) === filterKey(w))),
  );
}

/** Brute-force query-wide totals: articles holding the query (and passing the filters), and their occurrences. */
export function bruteTotals(
  articles: readonly ScannedArticle[],
  query: string,
  filters: DocumentFilters = {},
): { articles: number; occurrences: number } {
  const q = Buffer.from(query);
  let docs = 0;
  let occ = 0;
  for (const a of articles) {
    const n = bruteOccurrences(a.text, q);
    if (n > 0 && passesFilters(a.meta, filters)) {
      docs++;
      occ += n;
    }
  }
  return { articles: docs, occurrences: occ };
}

/** Pages a query through POST /api/v2/documents as the download script does and merges by (year, doc_ix). */
export async function pageThroughDocuments(
  url: string,
  found: FindResult,
  query: string,
  pageSize: number,
  filters: DocumentFilters = {},
): Promise<{ totals: QueryTotals; statuses: number[] }> {
  const totals = new QueryTotals();
  const statuses: number[] = [];
  for (const page of planPages(found, pageSize)) {
    const res = await v2(url, 'documents', {
      index: 'news',
      expected_index_version: found.index_version,
      query,
      ...page,
      ...filters,
    });
    statuses.push(res.status);
    if (res.status === 200) totals.add(res.body);
  }
  return { totals, statuses };
}

const WORD_CHAR = /^[\p{L}\p{N}]$/u;

/**
 * Brute-force matching with the options, written independently of the engine: the article is case-folded
 * character by character, remembering which folded positions are character edges; an occurrence is a match of
 * the folded query in the folded text that starts and ends on character edges (so `s` never matches half of `ß`).
 */
export function bruteMatchCount(
  text: Buffer,
  query: string,
  opts: { caseInsensitive: boolean; wholeWord: boolean },
  foldedText?: string,
): number {
  const fold = (s: string) => (opts.caseInsensitive ? caseFold(s) : s);
  const want = fold(query);
  // Cheap exclusion first: without the folded query anywhere in the folded article there is no match.
  if (!(opts.caseInsensitive ? (foldedText ?? caseFold(text.toString('utf8'))) : text.toString('utf8')).includes(want))
    return 0;
  const chars = Array.from(text.toString('utf8'));
  let folded = '';
  const startAt = new Map<number, number>(); // folded offset of a character start → its index in `chars`
  for (let i = 0; i < chars.length; i++) {
    startAt.set(folded.length, i);
    folded += fold(chars[i] as string);
  }
  startAt.set(folded.length, chars.length);
  let n = 0;
  for (let at = folded.indexOf(want); at !== -1 && want.length > 0; at = folded.indexOf(want, at + 1)) {
    const first = startAt.get(at);
    const end = startAt.get(at + want.length);
    if (first === undefined || end === undefined) continue;
    if (
      opts.wholeWord &&
      ((first > 0 && WORD_CHAR.test(chars[first - 1] as string)) ||
        (end < chars.length && WORD_CHAR.test(chars[end] as string)))
    )
      continue;
    n++;
  }
  return n;
}
