import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COMPRESSED_FORMAT_VERSION, COMPRESSED_READABLE_VERSIONS } from './compressed/format.ts';
import { FILES, SHARD_FORMAT_VERSION } from './format.ts';

/** The index kinds a shard can be built as (`news build --kind`); see DESIGN.md and compressed/DESIGN.md. */
export const SHARD_KINDS = ['sa', 'compressed'] as const;
export type ShardKind = (typeof SHARD_KINDS)[number];

export function isShardKind(v: unknown): v is ShardKind {
  return typeof v === 'string' && (SHARD_KINDS as readonly string[]).includes(v);
}

/** The shard format version this build writes for each kind (each kind versions its own files). */
export function shardFormatVersionOf(kind: ShardKind): number {
  return kind === 'compressed' ? COMPRESSED_FORMAT_VERSION : SHARD_FORMAT_VERSION;
}

/** The shard format versions this build reads for each kind. */
export function readableShardFormatVersions(kind: ShardKind): readonly number[] {
  return kind === 'compressed' ? COMPRESSED_READABLE_VERSIONS : [SHARD_FORMAT_VERSION];
}

/**
 * The kind a shard directory's header.json declares: `kind` absent means a suffix-array shard (format v1 predates
 * the field). Unreadable headers and unknown kinds are left to the kind's own header check, which names the file.
 */
export function shardKindOf(dir: string): ShardKind | 'unknown' {
  let kind: unknown;
  try {
    kind = (JSON.parse(readFileSync(path.join(dir, FILES.header), 'utf8')) as { kind?: unknown } | null)?.kind;
  } catch {
    return 'sa';
  }
  if (kind === undefined) return 'sa';
  return isShardKind(kind) ? kind : 'unknown';
}
