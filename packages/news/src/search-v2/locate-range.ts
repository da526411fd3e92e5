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
 * The ranks of [from, to) that `keep` accepts (every rank without it), in increasing order, each with its location:
 * located in batches through `ShardReader.locateMany` (one native call per batch on the compressed kind), with the
 * work budget's pauses between batches.
 *
 * @example const page = await locateRange(shard.reader, 0, 1000, undefined, work); // page[0].at.doc
 */
export async function locateRange(
  reader: ShardReader,
  from: number,
  to: number,
  keep: ((rank: number) => boolean) | undefined,
  work: WorkBudget,
): Promise<LocatedRank[]> {
  const out: LocatedRank[] = [];
  for (let start = from; start < to; start += LOCATE_BATCH) {
    const ranks: number[] = [];
    for (let rank = start; rank < Math.min(to, start + LOCATE_BATCH); rank++) {
      if (work.due()) await work.pause();
      if (keep === undefined || keep(rank)) ranks.push(rank);
    }
    reader.locateMany(ranks).forEach((at, k) => out.push({ rank: ranks[k] as number, at }));
  }
  return out;
}
