import { V2Error } from '../errors.ts';
import type { SearchArticle } from './types.ts';

/** Where a page of search results ended: the release, and the last article listed (shard and year-wide doc_ix). */
export interface SearchPosition {
  readonly index_version: string;
  readonly shard_id: string;
  readonly doc_ix: number;
}

/**
 * The opaque `next_cursor` of a search page: base64url of the position's JSON (versioned by its field names; a
 * cursor of another release answers 409, like every continuation).
 */
export function encodeCursor(p: SearchPosition): string {
  return Buffer.from(JSON.stringify([1, p.index_version, p.shard_id, p.doc_ix])).toString('base64url');
}

/** The JSON value inside a cursor (base64url of JSON), or null when it is not one; the caller checks its shape. */
export function cursorJson(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

export function decodeCursor(cursor: string): SearchPosition {
  const value = cursorJson(cursor);
  if (
    !Array.isArray(value) ||
    value.length !== 4 ||
    value[0] !== 1 ||
    typeof value[1] !== 'string' ||
    typeof value[2] !== 'string' ||
    !Number.isSafeInteger(value[3])
  ) {
    throw new V2Error(
      'invalid_query',
      'cursor is not a next_cursor of a search answer: send it back unchanged, with the same query',
    );
  }
  return { index_version: value[1] as string, shard_id: value[2] as string, doc_ix: value[3] as number };
}

/**
 * Whether an article comes after the position in release order. Shard ids sort chronologically as strings
 * (`YYYY-MM`, `YYYY-MM.pNNN`), which lets a worker holding only some shards place any other shard's position.
 */
export function isAfter(position: SearchPosition | undefined, shardId: string, docIx: number): boolean {
  if (position === undefined) return true;
  return shardId > position.shard_id || (shardId === position.shard_id && docIx > position.doc_ix);
}

/** The cursor after `page` when more of the `following` matches remain (one worker, or the gateway's merge). */
export function nextCursor(indexVersion: string, following: number, page: readonly SearchArticle[]): string | null {
  const last = page.at(-1);
  return last === undefined || following <= page.length
    ? null
    : encodeCursor({ index_version: indexVersion, shard_id: last.shard_id, doc_ix: last.doc_ix });
}
