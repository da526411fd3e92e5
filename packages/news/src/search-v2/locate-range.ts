import type { Location, ShardReader } from '../shard/index.ts';
import type { WorkBudget } from '../work-budget/index.ts';

/** Ranks per `locateMany` call: enough for the compressed kind's 16 interleaved walks, few enough to pause between. */
const LOCATE_BATCH = 64;

/** A rank of a page with its location. */
export interface LocatedRank {
  readonly rank: number;
  readonly at: Location;
}

/**
 * The location of every rank of `ranks` (any order, repeats allowed), in the same order: located in batches through
 * `ShardReader.locateMany` (one native call per batch on the compressed kind), with the work budget's pauses
 * between batches.
 *
 * @example const at = await locateRanks(shard.reader, [17, 3, 17], work); // at[1].pos
 */
export async function locateRanks(
  reader: ShardReader,
  ranks: readonly number[],
  work: WorkBudget,
): Promise<Location[]> {
  const out: Location[] = [];
  for (let start = 0; start < ranks.length; start += LOCATE_BATCH) {
    if (work.due()) await work.pause();
    for (const at of reader.locateMany(ranks.slice(start, start + LOCATE_BATCH))) out.push(at);
  }
  return out;
}

/**
 * The ranks of [from, to) that `keep` accepts (every rank without it), in increasing order, each with its location
 * (`locateRanks`, batched). `keep` sees the ranks in text order: a rule reading the text there (whole_word) then
 * decodes each compressed text block once, where rank order decoded about one block per rank.
 *
 * @example const page = await locateRange(shard.reader, 0, 1000, undefined, work); // page[0].at.doc
 */
export async function locateRange(
  reader: ShardReader,
  from: number,
  to: number,
  keep: ((rank: number, at: Location) => boolean) | undefined,
  work: WorkBudget,
): Promise<LocatedRank[]> {
  const ranks = Array.from({ length: Math.max(0, to - from) }, (_, k) => from + k);
  const page = (await locateRanks(reader, ranks, work)).map((at, k) => ({ rank: from + k, at }));
  if (keep === undefined) return page;
  const kept = new Uint8Array(page.length);
  const textOrder = page
    .map((_, k) => k)
    .sort((a, b) => (page[a] as LocatedRank).at.pos - (page[b] as LocatedRank).at.pos);
  for (const k of textOrder) {
    if (work.due()) await work.pause();
    const { rank, at } = page[k] as LocatedRank;
    kept[k] = keep(rank, at) ? 1 : 0;
  }
  return page.filter((_, k) => kept[k] === 1);
}

/**
 * Hands `visit` every rank of [from, to) in increasing order with its location, located a batch at a time
 * (`locateMany`, pauses between batches) without collecting them: for pages encoded as they are located.
 *
 * @example await forEachLocated(reader, 0, 1000, work, (rank, at) => out.push(at.doc));
 */
export async function forEachLocated(
  reader: ShardReader,
  from: number,
  to: number,
  work: WorkBudget,
  visit: (rank: number, at: Location) => void,
): Promise<void> {
  const ranks: number[] = [];
  for (let start = from; start < to; start += LOCATE_BATCH) {
    if (work.due()) await work.pause();
    ranks.length = 0;
    for (let rank = start; rank < Math.min(to, start + LOCATE_BATCH); rank++) ranks.push(rank);
    reader.locateMany(ranks).forEach((at, k) => visit(start + k, at));
  }
}
