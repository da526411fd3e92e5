/**
 * Merging the answers of several workers, each for its own shards, into the answer one worker holding every
 * shard gives: counts add up; per-shard lists are put back in the release's chronological order. Key order of
 * every object matches the v2 domain's, so the JSON text is byte-identical to a single worker's.
 */
import { FILTER_NAMES } from '../../protocol/index.ts';
import type {
  FilterName, ReplyFor, V2CountResult, V2FindResult, V2MetadataResult, V2ReleaseInfo, V2TimelineResult,
} from '../../protocol/index.ts';

/** One worker's answer, for the shards it was asked about. */
export interface Part<R> {
  readonly shards: readonly string[];
  readonly reply: R;
}

/** Position of each shard in the release order, for sorting merged lists. */
function rank(order: readonly string[]): (id: string) => number {
  const at = new Map(order.map((id, i) => [id, i]));
  return (id) => at.get(id) ?? Number.MAX_SAFE_INTEGER;
}

/** Entries of parallel per-shard lists (several per shard possible), regrouped in release order. */
export function byShardOrder<T>(order: readonly string[], lists: readonly { ids: readonly string[]; items: readonly T[] }[]): T[] {
  const groups = new Map<string, T[]>();
  for (const { ids, items } of lists) {
    ids.forEach((id, i) => {
      const g = groups.get(id);
      if (g === undefined) groups.set(id, [items[i] as T]);
      else g.push(items[i] as T);
    });
  }
  const pos = rank(order);
  return [...groups.entries()].sort((a, b) => pos(a[0]) - pos(b[0])).flatMap(([, g]) => g);
}

export function mergeV1Count(parts: readonly Part<ReplyFor<'count'>>[], indexVersion: string): ReplyFor<'count'> {
  return { kind: 'count', indexVersion, count: parts.reduce((n, p) => n + p.reply.count, 0) };
}

export function mergeV1Find(order: readonly string[], parts: readonly Part<ReplyFor<'find'>>[], indexVersion: string): ReplyFor<'find'> {
  const entries = byShardOrder(order, parts.map(({ reply: r }) => ({
    ids: r.shardIds, items: r.segments.map((seg, i) => ({ seg, id: r.shardIds[i] as string, year: r.shardYears[i] as string })),
  })));
  return {
    kind: 'find', indexVersion, count: parts.reduce((n, p) => n + p.reply.count, 0),
    segments: entries.map((e) => e.seg), shardIds: entries.map((e) => e.id), shardYears: entries.map((e) => e.year),
  };
}

export function mergeV2Find(order: readonly string[], parts: readonly V2FindResult[], indexVersion: string): V2FindResult {
  const entries = byShardOrder(order, parts.map((r) => ({
    ids: r.shard_ids, items: r.segment_by_shard.map((seg, i) => ({ seg, id: r.shard_ids[i] as string, year: r.shard_years[i] as string })),
  })));
  return {
    index_version: indexVersion,
    total_occurrences: parts.reduce((n, p) => n + p.total_occurrences, 0),
    segment_by_shard: entries.map((e) => e.seg), shard_ids: entries.map((e) => e.id), shard_years: entries.map((e) => e.year),
  };
}

export function mergeV2Count(parts: readonly V2CountResult[], indexVersion: string): V2CountResult {
  return { index_version: indexVersion, count: parts.reduce((n, p) => n + p.count, 0) };
}

/** Periods split into parts held by different workers are summed, as one worker sums a period's parts. */
export function mergeV2Timeline(order: readonly string[], parts: readonly V2TimelineResult[], indexVersion: string): V2TimelineResult {
  const pos = rank(order);
  const periods = new Map<string, { period: string; year: string; occurrences: number; articles: number; text_bytes: number; shard_ids: string[] }>();
  for (const p of parts) {
    for (const t of p.periods) {
      const m = periods.get(t.period);
      if (m === undefined) periods.set(t.period, { ...t, shard_ids: [...t.shard_ids] });
      else { m.occurrences += t.occurrences; m.articles += t.articles; m.text_bytes += t.text_bytes; m.shard_ids.push(...t.shard_ids); }
    }
  }
  for (const m of periods.values()) m.shard_ids.sort((a, b) => pos(a) - pos(b));
  const merged = [...periods.values()].sort((a, b) => pos(a.shard_ids[0] ?? '') - pos(b.shard_ids[0] ?? ''));
  return {
    index_version: indexVersion, query: parts[0]?.query ?? '',
    total_occurrences: parts.reduce((n, p) => n + p.total_occurrences, 0), periods: merged,
  };
}

export function mergeV2Info(order: readonly string[], parts: readonly V2ReleaseInfo[], indexVersion: string): V2ReleaseInfo {
  const pos = rank(order);
  const shards = parts.flatMap((p) => p.shards).sort((a, b) => pos(a.shard_id) - pos(b.shard_id));
  const period = (id: string | undefined) => id?.replace(/\.p\d{3}$/, '') ?? null;
  const first = parts[0];
  return {
    name: first?.name ?? '',
    index_version: indexVersion,
    document_count: shards.reduce((n, s) => n + s.documents, 0),
    date_range: { first: period(shards[0]?.shard_id), last: period(shards.at(-1)?.shard_id) },
    shards,
    available_indexes: first?.available_indexes ?? [],
    filters: mergeFilterSupport(parts.map((p) => p.filters)),
  };
}

/**
 * A filter is served by the release when any worker's years have values for it (each worker reports only the
 * metadata stores of its own years); otherwise the first worker's reason stands (all workers share the release's
 * country table, so the reasons agree).
 */
function mergeFilterSupport(parts: readonly V2ReleaseInfo['filters'][]): V2ReleaseInfo['filters'] {
  const none = { available: false, reason: 'no_values' } as const;
  return Object.fromEntries(FILTER_NAMES.map((f) => [f, parts.find((p) => p[f].available)?.[f] ?? parts[0]?.[f] ?? none])) as Record<FilterName, V2ReleaseInfo['filters'][FilterName]>;
}

/** Metadata answered per year group, put back in request order (`positions[i]` = request position of entry i). */
export function mergeV2Metadata(count: number, parts: readonly { positions: readonly number[]; result: V2MetadataResult }[], indexVersion: string): V2MetadataResult {
  const documents: V2MetadataResult['documents'][number][] = new Array(count);
  for (const { positions, result } of parts) positions.forEach((p, i) => { documents[p] = result.documents[i] as V2MetadataResult['documents'][number]; });
  return { index_version: indexVersion, documents };
}
