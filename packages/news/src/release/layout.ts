import { join } from 'node:path';

/**
 * Release directory layout (see DESIGN.md). All manifest paths are relative to the release root, with `/`.
 *
 *   index-manifest.json                         the full-text index manifest
 *   metadata-manifest.json                      the metadata-store manifest
 *   indexes/<name>/shards/<shard_id>/…          one shard (engine format, src/shard/DESIGN.md)
 *   indexes/<name>/shards/<shard_id>/titles/…   its headline index: a shard of the same kind over the titles
 *   indexes/<name>/metadata/<year>.sqlite       one metadata store per crawl year
 *   indexes/<name>/metadata/countries.csv       the country attribution table, when built with one
 *   indexes/<name>/words/<shard_id>.nwc         one shard's word-count table (word-counts/format.ts)
 *   indexes/<name>/stories/<year>.stories       each article's story (src/stories/story-file.ts), when built with them
 */
export const INDEX_MANIFEST_FILE = 'index-manifest.json';
export const METADATA_MANIFEST_FILE = 'metadata-manifest.json';

export const shardRelDir = (index: string, shardId: string): string => `indexes/${index}/shards/${shardId}`;
/** The headline index of a shard lives inside it, so renaming or placing the shard's folder carries it along. */
export const TITLES_DIR = 'titles';
export const titlesRelDir = (shardRelDir: string): string => `${shardRelDir}/${TITLES_DIR}`;
export const yearStoreRelPath = (index: string, year: string): string => `indexes/${index}/metadata/${year}.sqlite`;
export const wordCountsRelPath = (index: string, shardId: string): string => `indexes/${index}/words/${shardId}.nwc`;
export const storiesRelPath = (index: string, year: string): string => `indexes/${index}/stories/${year}.stories`;
export const countriesRelPath = (index: string): string => `indexes/${index}/metadata/countries.csv`;

export const resolveRel = (root: string, rel: string): string => join(root, ...rel.split('/'));

/** Index names follow the v1 API's `index` pattern so every index is addressable. */
export const INDEX_NAME_PATTERN = /^[a-z0-9_]{1,100}$/;
/** Release identities: printable, no spaces or slashes, so they travel in flags, headers and file names. */
export const INDEX_VERSION_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,199}$/;
