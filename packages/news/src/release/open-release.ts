import { stat } from 'node:fs/promises';
import { openMetadataStore, MetadataStoreError, READABLE_METADATA_STORE_FORMAT_VERSIONS } from '../metadata/index.ts';
import {
  openShard,
  verifyShardFiles,
  ShardFormatError,
  SHARD_KINDS,
  isShardKind,
  readableShardFormatVersions,
  shardKindOf,
} from '../shard/index.ts';
import { ReleaseVerificationError } from './errors.ts';
import { INDEX_MANIFEST_FILE, METADATA_MANIFEST_FILE, resolveRel } from './layout.ts';
import {
  IndexManifestSchema,
  MetadataManifestSchema,
  readManifest,
  type HeadlineIndexEntry,
  type IndexManifestShard,
  type StoriesEntry,
} from './manifest.ts';
import { openStoryTable } from './story-files.ts';
import type { IndexVersion, MetadataStore, OpenRelease, ReleaseIndex, ShardHandle, ShardId } from './types.ts';
import { checkManifestsAgree } from './verify-manifests.ts';
import { firstDigestMismatch, type RecordedFile } from './verify-digests.ts';

export interface OpenReleaseOptions {
  /** 'memory': whole shards in RAM; 'disk': positional reads, RSS independent of corpus size. */
  readonly mode: 'memory' | 'disk';
  /**
   * How each shard's headline index is opened, whatever `mode` is: 'disk' (default) keeps only its offset table in
   * RAM, so a month served in memory grows by 8 bytes per article, not 5 per headline byte (issue 24's RSS target;
   * `title:` queries are a small share). 'memory' holds it like a shard in memory mode (bench:headlines' A/B).
   */
  readonly headlineMode: 'memory' | 'disk';
  /** Refuse unless the release is this one (the worker's --index-version). */
  readonly expectedIndexVersion?: string | undefined;
  /** 'sizes' (default): every file exists with its recorded size; 'full': also every sha256 (reads everything). */
  readonly verify: 'sizes' | 'full';
  /**
   * Serve a subset (scale-out workers): given an index's shard ids from the manifest, the ids to open. Only those
   * shards and the metadata stores of their years are verified and opened; may throw to refuse the release.
   */
  readonly selectShards?: ((index: string, shardIds: readonly string[]) => readonly string[]) | undefined;
}

export const defaultOpenReleaseOptions: OpenReleaseOptions = { mode: 'memory', headlineMode: 'disk', verify: 'sizes' };

/**
 * Opens a release after checking that its two manifests agree and its files are intact; any difference is a
 * ReleaseVerificationError with one line that says what differs and what to do.
 * @example const release = await openRelease('release/', { mode: 'disk', expectedIndexVersion: '2024-06-01' })
 */
export async function openRelease(dir: string, opts: Partial<OpenReleaseOptions> = {}): Promise<OpenRelease> {
  const options = { ...defaultOpenReleaseOptions, ...opts };
  const index = await readManifest(dir, INDEX_MANIFEST_FILE, IndexManifestSchema);
  const meta = await readManifest(dir, METADATA_MANIFEST_FILE, MetadataManifestSchema);
  checkManifestsAgree(dir, index, meta, options.expectedIndexVersion);
  for (const mx of meta.indexes) {
    if (!READABLE_METADATA_STORE_FORMAT_VERSIONS.includes(mx.store_format_version)) {
      throw new ReleaseVerificationError(
        'format_unsupported',
        `release ${dir} index ${mx.name} uses store format ${mx.store_format_version}; this build reads ${READABLE_METADATA_STORE_FORMAT_VERSIONS.join(', ')}; rebuild the release with this version of news build`,
      );
    }
  }
  for (const s of index.indexes.flatMap((ix) => ix.shards)) {
    checkShardKind(dir, s);
    if (s.titles) checkShardKind(dir, headlineShard(s, s.titles));
    if (s.titles && s.titles.doc_count !== s.doc_count)
      throw corrupt(dir, `shard ${s.shard_id} has ${s.doc_count} articles but ${s.titles.doc_count} headlines`);
  }

  // What each index serves (scale-out workers serve a subset); every file is checked (sizes, shard headers) before
  // anything is opened.
  const digests: RecordedFile[] = [];
  const check = (rel: string, bytes: number, sha256: string) =>
    verifyFile(dir, rel, bytes, sha256, options.verify, digests);
  const plans: {
    ix: (typeof index.indexes)[number];
    served: IndexManifestShard[];
    years: (typeof meta.indexes)[number]['years'];
    countries: boolean;
    stories: StoriesEntry | undefined;
  }[] = [];
  for (const ix of index.indexes) {
    const mx = meta.indexes.find((m) => m.name === ix.name);
    if (!mx) continue;
    const chosen =
      options.selectShards === undefined
        ? null
        : new Set(
            options.selectShards(
              ix.name,
              ix.shards.map((s) => s.shard_id),
            ),
          );
    const served = chosen === null ? ix.shards : ix.shards.filter((s) => chosen.has(s.shard_id));
    const servedYears = new Set(served.map((s) => s.year));
    const years = mx.years.filter((y) => chosen === null || servedYears.has(y.year));
    for (const s of served) await verifyShard(dir, s, options.verify, digests);
    for (const s of served)
      if (s.word_counts) await check(s.word_counts.file, s.word_counts.bytes, s.word_counts.sha256);
    for (const y of years) await check(y.file, y.bytes, y.sha256);
    if (mx.countries) await check(mx.countries.file, mx.countries.bytes, mx.countries.sha256);
    for (const y of mx.stories?.years ?? []) await check(y.file, y.bytes, y.sha256);
    plans.push({ ix, served, years, countries: mx.countries !== null, stories: mx.stories });
  }
  // `--verify full`: the sha256 of every served file, each read once, on digest threads while the shards load
  // below; the release is handed out (and so served) only once all match.
  const stopDigests = new AbortController();
  const digesting =
    digests.length === 0 ? Promise.resolve(null) : firstDigestMismatch(digests, undefined, stopDigests.signal);
  const closers: (() => void)[] = [];
  try {
    const indexes = new Map<string, ReleaseIndex>();
    for (const { ix, served, years, countries, stories } of plans) {
      const shards: ShardHandle[] = [];
      for (const s of served) {
        const reader = openShardChecked(dir, s, options.mode);
        closers.push(() => reader.close());
        const titles = s.titles && openShardChecked(dir, headlineShard(s, s.titles), options.headlineMode);
        if (titles) closers.push(() => titles.close());
        const wc = s.word_counts;
        const wordCounts = wc && { path: resolveRel(dir, wc.file), tokens: wc.tokens, types: wc.types };
        shards.push({ shardId: s.shard_id as ShardId, year: s.year, docBase: s.doc_base, reader, titles, wordCounts });
      }
      const stores = new Map<string, MetadataStore>();
      for (const y of years) {
        const store = openStoreChecked(dir, y.file, {
          year: y.year,
          docCount: y.doc_count,
          indexVersion: index.index_version,
        });
        closers.push(() => store.close());
        stores.set(y.year, store);
      }
      indexes.set(ix.name, {
        name: ix.name,
        shards,
        metadata: (year) => stores.get(year),
        hasCountryAttribution: countries,
        stories: stories && (await openStoryTable(dir, stories)),
        releaseShards: ix.shards.map((s) => ({ shardId: s.shard_id as ShardId, year: s.year })),
      });
    }
    const mismatch = await digesting;
    if (mismatch !== null) {
      throw corrupt(
        dir,
        mismatch.reason === 'sha256'
          ? `${mismatch.rel} does not match its sha256 in the manifest (corrupted)`
          : `${mismatch.rel} could not be read (${mismatch.message})`,
      );
    }
    let closed = false;
    return {
      indexVersion: index.index_version as IndexVersion,
      indexes,
      close() {
        if (closed) return;
        closed = true;
        for (const c of closers) c();
      },
    };
  } catch (e) {
    for (const c of closers) c();
    stopDigests.abort();
    await digesting;
    throw e;
  }
}

async function verifyShard(
  dir: string,
  s: IndexManifestShard,
  mode: 'sizes' | 'full',
  digests: RecordedFile[],
): Promise<void> {
  if (mode === 'full') {
    try {
      // The header's numbers and the sizes; the sha256 of each file is taken once, with the release's others.
      await verifyShardFiles(
        resolveRel(dir, s.dir),
        {
          formatVersion: s.format_version,
          textBytes: s.text_bytes,
          docCount: s.doc_count,
          pointerBytes: s.pointer_bytes,
          files: s.files,
        },
        { digests: false },
      );
    } catch (e) {
      if (e instanceof ShardFormatError) throw corrupt(dir, `shard ${s.shard_id}: ${e.message}`);
      throw e;
    }
  }
  for (const f of s.files) await verifyFile(dir, `${s.dir}/${f.name}`, f.bytes, f.sha256, mode, digests);
  // The headline index is checked as a shard of its own (same kind), with the same article count.
  if (s.titles) await verifyShard(dir, headlineShard(s, s.titles), mode, digests);
}

/** A shard's headline index as a manifest shard entry, so it is verified and opened exactly as the shard is. */
function headlineShard(s: IndexManifestShard, t: HeadlineIndexEntry): IndexManifestShard {
  return { ...s, shard_id: `${s.shard_id} (headlines)`, ...t, titles: undefined };
}

/** The file exists with its recorded size; in full mode it joins `digests`, whose sha256 openRelease checks. */
async function verifyFile(
  dir: string,
  rel: string,
  bytes: number,
  sha256: string,
  mode: 'sizes' | 'full',
  digests: RecordedFile[],
): Promise<void> {
  const path = resolveRel(dir, rel);
  const st = await stat(path).catch(() => undefined);
  if (!st)
    throw new ReleaseVerificationError(
      'file_missing',
      `release ${dir} is missing ${rel}; restore the release from its source or rebuild it with news build`,
    );
  if (st.size !== bytes) {
    throw corrupt(dir, `${rel} has ${st.size} bytes, the manifest says ${bytes} (truncated or replaced)`);
  }
  if (mode === 'full') digests.push({ path, rel, bytes, sha256 });
}

/** The shard's index kind is one this build reads, in the format version it reads for that kind. */
function checkShardKind(dir: string, s: IndexManifestShard): void {
  if (!isShardKind(s.kind)) {
    throw new ReleaseVerificationError(
      'format_unsupported',
      `release ${dir} shard ${s.shard_id} is of index kind ${JSON.stringify(s.kind)}; this build reads kinds ${SHARD_KINDS.join(', ')}; rebuild the release with this version of news build`,
    );
  }
  const readable = readableShardFormatVersions(s.kind);
  if (!readable.includes(s.format_version)) {
    throw new ReleaseVerificationError(
      'format_unsupported',
      `release ${dir} shard ${s.shard_id} uses ${s.kind} shard format ${s.format_version}; this build reads ${readable.join(' and ')}; rebuild the release with this version of news build`,
    );
  }
}

function openShardChecked(dir: string, s: IndexManifestShard, mode: 'memory' | 'disk'): ReturnType<typeof openShard> {
  let reader: ReturnType<typeof openShard>;
  const kind = shardKindOf(resolveRel(dir, s.dir));
  if (kind !== s.kind)
    throw corrupt(dir, `shard ${s.shard_id} is of kind ${kind} on disk, the manifest says ${s.kind}`);
  try {
    reader = openShard(resolveRel(dir, s.dir), mode);
  } catch (e) {
    if (e instanceof ShardFormatError) throw corrupt(dir, `shard ${s.shard_id}: ${e.message}`);
    throw e;
  }
  if (reader.stats.docCount !== s.doc_count || reader.stats.textBytes !== s.text_bytes) {
    reader.close();
    throw corrupt(
      dir,
      `shard ${s.shard_id} holds ${reader.stats.docCount} articles / ${reader.stats.textBytes} bytes, the manifest says ${s.doc_count} / ${s.text_bytes}`,
    );
  }
  return reader;
}

function openStoreChecked(
  dir: string,
  rel: string,
  o: { year: string; docCount: number; indexVersion: string },
): MetadataStore {
  try {
    return openMetadataStore(resolveRel(dir, rel), o);
  } catch (e) {
    if (e instanceof MetadataStoreError)
      throw corrupt(dir, e.message.replace(/; rebuild the release with news build$/, ''));
    throw e;
  }
}

function corrupt(dir: string, what: string): ReleaseVerificationError {
  return new ReleaseVerificationError(
    'file_corrupt',
    `release ${dir}: ${what}; restore the release from its source or rebuild it with news build`,
  );
}
