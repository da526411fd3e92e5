import { ReleaseVerificationError } from './errors.ts';
import { startDigestThread, type DigestThread } from './digest-thread.ts';
import { INDEX_MANIFEST_FILE, METADATA_MANIFEST_FILE, resolveRel } from './layout.ts';
import { IndexManifestSchema, MetadataManifestSchema, readManifest } from './manifest.ts';
import type { OpenRelease, ShardId } from './types.ts';

/** A served shard whose files (or whose year's metadata store) do not match the manifest's sha256. */
export interface ShardDamage {
  readonly index: string;
  readonly shardId: ShardId;
  /** The file that differs, relative to the release, and how. */
  readonly file: string;
  readonly reason: string;
}

export interface DigestCheckOptions {
  /** Heard once per damaged shard, as soon as it is found (the check goes on with the other shards). */
  readonly onDamage: (damage: ShardDamage) => void;
  readonly onProgress?: ((p: DigestCheckProgress) => void) | undefined;
  /** Stops the check between reads (the worker is closing). */
  readonly signal?: AbortSignal | undefined;
}

export interface DigestCheckProgress {
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly filesDone: number;
  readonly filesTotal: number;
}

export interface DigestCheckSummary extends DigestCheckProgress {
  readonly damagedShards: number;
  readonly seconds: number;
}

interface Unit {
  readonly index: string;
  /** The served shards this file's damage takes out of service: its own shard, or every shard of a store's year. */
  readonly shards: readonly ShardId[];
  readonly rel: string;
  readonly bytes: number;
  readonly sha256: string;
}

/**
 * What `verify: 'full'` does on open, for a release already serving: reads every file of the served shards and of
 * their years' metadata stores once, on a thread of its own (digest-thread.ts), and compares its sha256 with the
 * manifest. Each damaged shard is reported once, as soon as it is found; a damaged store reports every served shard
 * of its year (their metadata would be wrong). The manifests are read again here (a release is immutable; its
 * identity must still be the one served).
 * @example await checkReleaseDigests('release/', release, { onDamage: (d) => log.error(d, 'shard damaged') })
 */
export async function checkReleaseDigests(
  dir: string,
  release: OpenRelease,
  options: DigestCheckOptions,
): Promise<DigestCheckSummary> {
  const started = Date.now();
  const units = await unitsToCheck(dir, release);
  const progress = {
    bytesDone: 0,
    bytesTotal: units.reduce((n, u) => n + u.bytes, 0),
    filesDone: 0,
    filesTotal: units.length,
  };
  const damaged = new Set<string>();
  const thread = startDigestThread();
  // Stopping the thread rejects the digest under way: the check ends within one read.
  const stop = (): void => void thread.close();
  options.signal?.addEventListener('abort', stop);
  try {
    for (const u of units) {
      options.signal?.throwIfAborted();
      if (u.shards.every((s) => damaged.has(`${u.index}\0${s}`))) {
        progress.bytesDone += u.bytes;
        progress.filesDone++;
        continue;
      }
      const reason = await differs(thread, resolveRel(dir, u.rel), u, (n) => {
        progress.bytesDone += n;
        options.onProgress?.({ ...progress });
      });
      progress.filesDone++;
      if (reason === null) continue;
      for (const shardId of u.shards) {
        if (damaged.has(`${u.index}\0${shardId}`)) continue;
        damaged.add(`${u.index}\0${shardId}`);
        options.onDamage({ index: u.index, shardId, file: u.rel, reason });
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', stop);
    await thread.close();
  }
  return { ...progress, damagedShards: damaged.size, seconds: (Date.now() - started) / 1000 };
}

/** Why the file is not what the manifest says, or null when its size and sha256 match. */
async function differs(
  thread: DigestThread,
  path: string,
  u: Unit,
  onBytes: (n: number) => void,
): Promise<string | null> {
  let got: { bytes: number; sha256: string };
  try {
    got = await thread.digest(path, onBytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // Anything but an I/O refusal (the thread stopped because the worker closes) is not a verdict on the file.
    if (code === undefined) throw e;
    return `it cannot be read (${code})`;
  }
  if (got.bytes !== u.bytes) return `it has ${got.bytes} bytes, the manifest says ${u.bytes}`;
  return got.sha256 === u.sha256 ? null : 'it does not match its sha256 in the manifest';
}

/** The files of the served shards and their years' stores, shard files first (in release order). */
async function unitsToCheck(dir: string, release: OpenRelease): Promise<Unit[]> {
  const index = await readManifest(dir, INDEX_MANIFEST_FILE, IndexManifestSchema);
  const meta = await readManifest(dir, METADATA_MANIFEST_FILE, MetadataManifestSchema);
  if (index.index_version !== release.indexVersion) {
    throw new ReleaseVerificationError(
      'index_version_mismatch',
      `release ${dir} now names ${JSON.stringify(index.index_version)}, the worker serves ${JSON.stringify(release.indexVersion)}; a release is immutable: restore it or restart the worker`,
    );
  }
  const units: Unit[] = [];
  for (const [name, served] of release.indexes) {
    const ix = index.indexes.find((i) => i.name === name);
    const ids = new Set<string>(served.shards.map((s) => s.shardId));
    for (const s of ix?.shards ?? []) {
      if (!ids.has(s.shard_id)) continue;
      for (const f of s.files)
        units.push({
          index: name,
          shards: [s.shard_id as ShardId],
          rel: `${s.dir}/${f.name}`,
          bytes: f.bytes,
          sha256: f.sha256,
        });
      for (const f of s.titles?.files ?? [])
        units.push({
          index: name,
          shards: [s.shard_id as ShardId],
          rel: `${s.titles?.dir}/${f.name}`,
          bytes: f.bytes,
          sha256: f.sha256,
        });
    }
    for (const y of meta.indexes.find((i) => i.name === name)?.years ?? []) {
      const ofYear = served.shards.filter((s) => s.year === y.year).map((s) => s.shardId);
      if (ofYear.length > 0) units.push({ index: name, shards: ofYear, rel: y.file, bytes: y.bytes, sha256: y.sha256 });
    }
  }
  return units;
}
