import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compressedKind } from './compressed/kind.ts';
import { ShardFormatError } from './errors.ts';
import { FILES } from './format.ts';
import type { IndexKind } from './index-kind.ts';
import { saKind } from './sa/kind.ts';

/**
 * The registry of index kinds: the one place that knows which kinds exist. A new kind is a folder beside `sa/` and
 * `compressed/` exporting its `IndexKind`, plus one entry here; the contract and property suites then run over it
 * (kinds.test.ts). Lint keeps tests of a kind's name out of every other file (eslint.config.js).
 */
const REGISTERED = [saKind, compressedKind] as const;

export type ShardKind = (typeof REGISTERED)[number]['name'];

const INDEX_KINDS: Readonly<Record<ShardKind, IndexKind<ShardKind>>> = (() => {
  const byName = {} as Record<ShardKind, IndexKind<ShardKind>>;
  for (const kind of REGISTERED) byName[kind.name] = kind;
  return byName;
})();

/** Every kind's name, in registration order (`news build --kind`). */
export const SHARD_KINDS: readonly ShardKind[] = REGISTERED.map((k) => k.name);

/** The kind of a header.json without a `kind` field: format v1 of the suffix array predates the field. */
const HEADER_DEFAULT_KIND: ShardKind = 'sa';

export function isShardKind(v: unknown): v is ShardKind {
  return typeof v === 'string' && Object.hasOwn(INDEX_KINDS, v);
}

/** Every registered kind, in registration order. */
export const indexKinds = (): readonly IndexKind<ShardKind>[] => REGISTERED;

/** The registered kind of this name. */
export const indexKind = (name: ShardKind): IndexKind<ShardKind> => INDEX_KINDS[name];

/** The shard format version this build writes for each kind (each kind versions its own files). */
export const shardFormatVersionOf = (kind: ShardKind): number => INDEX_KINDS[kind].formatVersion;

/** The shard format versions this build reads for each kind. */
export const readableShardFormatVersions = (kind: ShardKind): readonly number[] =>
  INDEX_KINDS[kind].readableFormatVersions;

/**
 * The kind a shard directory's header.json declares: `kind` absent means a suffix-array shard (format v1 predates
 * the field). Unreadable headers are left to the kind's own header check, which names the file.
 */
export function shardKindOf(dir: string): ShardKind | 'unknown' {
  let kind: unknown;
  try {
    kind = (JSON.parse(readFileSync(path.join(dir, FILES.header), 'utf8')) as { kind?: unknown } | null)?.kind;
  } catch {
    return HEADER_DEFAULT_KIND;
  }
  if (kind === undefined) return HEADER_DEFAULT_KIND;
  return isShardKind(kind) ? kind : 'unknown';
}

/** The kind that reads the shard in `dir`; ShardFormatError naming its header when this build knows no such kind. */
export function kindOfShard(dir: string): IndexKind<ShardKind> {
  const kind = shardKindOf(dir);
  if (kind === 'unknown') {
    throw new ShardFormatError(
      path.join(dir, FILES.header),
      `unknown index kind; this build reads kinds ${SHARD_KINDS.join(' and ')} (rebuild the shard)`,
    );
  }
  return INDEX_KINDS[kind];
}
