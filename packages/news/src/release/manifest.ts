import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { ReleaseVerificationError } from './errors.ts';

/**
 * Version of both manifest formats; bump on any incompatible change (DESIGN.md). 2: shards record their parts and
 * index kind. 3: a shard may record its headline index (`titles`); a version 2 release opens without headlines.
 */
export const MANIFEST_FORMAT_VERSION = 3;
export const READABLE_MANIFEST_FORMAT_VERSIONS: readonly number[] = [2, 3];
export const INDEX_MANIFEST_FORMAT = 'news-index-manifest';
export const METADATA_MANIFEST_FORMAT = 'news-metadata-manifest';

const FileEntry = Type.Object({
  name: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});
const StoredFile = Type.Object({
  file: Type.String(),
  bytes: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

/** A shard as both manifests name it: the shard set must be identical in the two. */
const ShardRef = {
  shard_id: Type.String(),
  year: Type.String({ pattern: '^\\d{4}$' }),
  doc_base: Type.Integer({ minimum: 0 }),
  doc_count: Type.Integer({ minimum: 0 }),
};

/** A shard's headline index: a shard of the shard's kind over its articles' titles, article d = headline d. */
const HeadlineIndex = Type.Object({
  dir: Type.String(),
  format_version: Type.Integer(),
  text_bytes: Type.Integer({ minimum: 0 }),
  doc_count: Type.Integer({ minimum: 0 }),
  pointer_bytes: Type.Integer({ minimum: 1 }),
  files: Type.Array(FileEntry),
});

const IndexShard = Type.Object({
  ...ShardRef,
  /** The crawl period the shard covers, and its place among that period's parts (part 1 of 1: the whole period). */
  crawl_period: Type.String({ pattern: '^\\d{4}(-\\d{2})?$' }),
  part: Type.Integer({ minimum: 1 }),
  parts: Type.Integer({ minimum: 1 }),
  dir: Type.String(),
  /** Index kind (`sa` or `compressed`); a string here so an unknown kind gets its own clear refusal on open. */
  kind: Type.String(),
  format_version: Type.Integer(),
  text_bytes: Type.Integer({ minimum: 0 }),
  pointer_bytes: Type.Integer({ minimum: 1 }),
  files: Type.Array(FileEntry),
  /** Absent in releases built before headline search (manifest format 2): `title:` is then refused. */
  titles: Type.Optional(HeadlineIndex),
  /** The shard's word-count table (word-counts/format.ts); absent in releases built before it, which still open. */
  word_counts: Type.Optional(
    Type.Object({
      ...StoredFile.properties,
      tokens: Type.Integer({ minimum: 0 }),
      types: Type.Integer({ minimum: 0 }),
    }),
  ),
});

export const IndexManifestSchema = Type.Object({
  format: Type.Literal(INDEX_MANIFEST_FORMAT),
  format_version: Type.Integer(),
  index_version: Type.String(),
  created_at: Type.String(),
  indexes: Type.Array(
    Type.Object({
      name: Type.String(),
      period: Type.Union([Type.Literal('month'), Type.Literal('year')]),
      shard_format_version: Type.Integer(),
      shards: Type.Array(IndexShard),
      totals: Type.Object({ documents: Type.Integer(), text_bytes: Type.Integer(), index_bytes: Type.Integer() }),
    }),
  ),
});
export type IndexManifest = Static<typeof IndexManifestSchema>;
export type IndexManifestShard = Static<typeof IndexShard>;
export type HeadlineIndexEntry = Static<typeof HeadlineIndex>;

/** The story files and the clustering that made them (release/DESIGN.md, "Stories"). */
const StoriesEntrySchema = Type.Object({
  format_version: Type.Integer(),
  shingle_words: Type.Integer({ minimum: 1 }),
  signature_slots: Type.Integer({ minimum: 1 }),
  bands: Type.Integer({ minimum: 1 }),
  rows: Type.Integer({ minimum: 1 }),
  threshold: Type.Number({ minimum: 0, maximum: 1 }),
  /** Articles of the whole release the story ids number (a part build clusters the whole input). */
  documents: Type.Integer({ minimum: 0 }),
  years: Type.Array(
    Type.Object({
      year: Type.String({ pattern: '^\\d{4}$' }),
      doc_count: Type.Integer({ minimum: 0 }),
      ...StoredFile.properties,
    }),
  ),
});
export type StoriesEntry = Static<typeof StoriesEntrySchema>;

export const MetadataManifestSchema = Type.Object({
  format: Type.Literal(METADATA_MANIFEST_FORMAT),
  format_version: Type.Integer(),
  index_version: Type.String(),
  created_at: Type.String(),
  indexes: Type.Array(
    Type.Object({
      name: Type.String(),
      store_format_version: Type.Integer(),
      shard_format_version: Type.Integer(),
      shards: Type.Array(Type.Object(ShardRef)),
      years: Type.Array(
        Type.Object({ year: Type.String(), doc_count: Type.Integer({ minimum: 0 }), ...StoredFile.properties }),
      ),
      countries: Type.Union([
        Type.Null(),
        Type.Object({ rows: Type.Integer({ minimum: 0 }), ...StoredFile.properties }),
      ]),
      /** Each article's story (issue 28): absent in releases built before stories or with --no-stories. */
      stories: Type.Optional(StoriesEntrySchema),
      totals: Type.Object({ documents: Type.Integer(), bytes: Type.Integer() }),
    }),
  ),
});
export type MetadataManifest = Static<typeof MetadataManifestSchema>;

/** Reads and validates one manifest; a missing, unparsable or foreign file is a ReleaseVerificationError. */
export const readManifest = <S extends TSchema>(dir: string, file: string, schema: S): Promise<Static<S>> =>
  readVersionedJson(
    dir,
    file,
    schema,
    READABLE_MANIFEST_FORMAT_VERSIONS,
    'point --release at a complete release built by news build',
    'rebuild the release',
  );

/**
 * Reads a versioned JSON file of a release (or of a release part) and checks it against its schema. `whereFix` says
 * where to find a right folder when the file is missing, `rebuildFix` how to get a readable one.
 */
export async function readVersionedJson<S extends TSchema>(
  dir: string,
  file: string,
  schema: S,
  formatVersion: number | readonly number[],
  whereFix: string,
  rebuildFix = 'rebuild it',
): Promise<Static<S>> {
  const path = join(dir, file);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    throw new ReleaseVerificationError('manifest_missing', `release ${dir} has no ${file}; ${whereFix}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ReleaseVerificationError(
      'manifest_invalid',
      `${path} is not valid JSON (${(e as Error).message}); ${rebuildFix} with news build`,
    );
  }
  const version = (value as { format_version?: unknown } | null)?.format_version;
  const readable = typeof formatVersion === 'number' ? [formatVersion] : formatVersion;
  if (typeof version === 'number' && !readable.includes(version)) {
    throw new ReleaseVerificationError(
      'format_unsupported',
      `${path} has manifest format version ${version}, this build reads ${readable.join(' and ')}; ${rebuildFix} or use a matching news version`,
    );
  }
  if (!Value.Check(schema, value)) {
    const first = Value.Errors(schema, value).First();
    throw new ReleaseVerificationError(
      'manifest_invalid',
      `${path} is not a valid manifest (${first ? `${first.path || '/'}: ${first.message}` : 'unknown shape'}); ${rebuildFix} with news build`,
    );
  }
  return value;
}
