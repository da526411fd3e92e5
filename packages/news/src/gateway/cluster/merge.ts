/**
 * Merging v1 answers of several workers, each for its own shards, into the answer one worker holding every shard
 * gives, and v2 metadata back into request order. Every other v2 call is combined by its own declaration's
 * `combine` (search-v2/calls), the same function the worker runs over its shards.
 */
import { byShardOrder, type ReplyFor, type V2MetadataResult } from '../../protocol/index.ts';

/** One worker's answer, for the shards it was asked about. */
export interface Part<R> {
  readonly shards: readonly string[];
  readonly reply: R;
}

export function mergeV1Count(parts: readonly Part<ReplyFor<'count'>>[], indexVersion: string): ReplyFor<'count'> {
  return { kind: 'count', indexVersion, count: parts.reduce((n, p) => n + p.reply.count, 0) };
}

export function mergeV1Find(
  order: readonly string[],
  parts: readonly Part<ReplyFor<'find'>>[],
  indexVersion: string,
): ReplyFor<'find'> {
  const entries = byShardOrder(
    order,
    parts.map(({ reply: r }) => ({
      ids: r.shardIds,
      items: r.segments.map((seg, i) => ({ seg, id: r.shardIds[i] as string, year: r.shardYears[i] as string })),
    })),
  );
  return {
    kind: 'find',
    indexVersion,
    count: parts.reduce((n, p) => n + p.reply.count, 0),
    segments: entries.map((e) => e.seg),
    shardIds: entries.map((e) => e.id),
    shardYears: entries.map((e) => e.year),
  };
}

/** Metadata answered per year group, put back in request order (`positions[i]` = request position of entry i). */
export function mergeV2Metadata(
  count: number,
  parts: readonly { positions: readonly number[]; result: V2MetadataResult }[],
  indexVersion: string,
): V2MetadataResult {
  const documents: V2MetadataResult['documents'][number][] = new Array(count);
  for (const { positions, result } of parts)
    positions.forEach((p, i) => {
      documents[p] = result.documents[i] as V2MetadataResult['documents'][number];
    });
  return { index_version: indexVersion, documents };
}
