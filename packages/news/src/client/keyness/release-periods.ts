import type { ApiClient } from '../api/api-client.ts';
import { periodsOfShards } from './period-range.ts';

/**
 * The release's crawl periods, chronological, for a view that picks subcorpora; `status` says they are being read,
 * and on failure says so, reports the error with `retry`, and gives null.
 */
export async function readPeriods(
  ctx: {
    readonly api: ApiClient;
    readonly search: { readonly index: string };
    onError(e: unknown, retry: () => void): void;
  },
  status: HTMLElement,
  retry: () => void,
): Promise<string[] | null> {
  status.textContent = 'Reading the crawl periods…';
  try {
    const info = await ctx.api.info(ctx.search.index);
    return periodsOfShards(info.shards.map((s) => s.shard_id));
  } catch (e) {
    status.textContent = 'The crawl periods could not be read.';
    ctx.onError(e, retry);
    return null;
  }
}
