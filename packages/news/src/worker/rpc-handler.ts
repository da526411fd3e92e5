import type { OpenRelease, ReleaseIndex, ShardHandle } from '../release/types.ts';
import type {
  ReplyFor,
  ShardSelection,
  V2WorkerRequest,
  WorkerError,
  WorkerReply,
  WorkerRequest,
} from '../protocol/index.ts';
import { describeRelease } from './identity.ts';
import { createV2Handler } from './v2-handler.ts';
import { ResultCache } from './result-cache.ts';
import type { WorkBudget } from '../work-budget/index.ts';
import { defaultWorkLimits, workBudgets, type WorkLimits } from './work-limits.ts';

export interface RpcHandlerOptions {
  /** count/find results kept (LRU); 0 turns the cache off. */
  readonly cacheEntries: number;
  /** Longer queries are not cached: they are rarely repeated and would make keys large. */
  readonly cacheMaxQueryLength: number;
  /** CPU per v2 request by index kind, and the slice length (work-limits.ts). */
  readonly work: WorkLimits;
}

export const defaultRpcHandlerOptions: RpcHandlerOptions = {
  cacheEntries: 10_000,
  cacheMaxQueryLength: 256,
  work: defaultWorkLimits,
};

/**
 * A v2 reply still being computed: its loops pause between slices so other requests are answered meanwhile, and
 * `work.cancel()` stops it when nobody waits any more.
 */
export class PendingReply {
  constructor(
    readonly work: WorkBudget,
    readonly reply: Promise<WorkerReply>,
  ) {}
}

/**
 * Answers one protocol request from an opened release. Pure with respect to HTTP: the server only frames it.
 * v1 requests and the identity (microseconds each) answer at once; v2 ones answer a `PendingReply` bounded by
 * `budgetMs` from now (the envelope's; default: none) and the release kind's CPU limit.
 */
export interface RpcHandler {
  (request: Exclude<WorkerRequest, V2WorkerRequest>, budgetMs?: number): WorkerReply;
  (request: WorkerRequest, budgetMs?: number): WorkerReply | PendingReply;
}

class RequestRefused extends Error {
  constructor(readonly error: WorkerError) {
    super(error.code);
  }
}

/** Shards of `index` whose crawl year lies in [yearMin, yearMax], chronological: v1's `s` indexes this list. */
export function selectShards(index: ReleaseIndex, sel: ShardSelection): readonly ShardHandle[] {
  if (sel.yearMin === null && sel.yearMax === null) return index.shards;
  const lo = sel.yearMin ?? -Infinity;
  const hi = sel.yearMax ?? Infinity;
  return index.shards.filter((s) => {
    const y = Number(s.year);
    return y >= lo && y <= hi;
  });
}

export function createRpcHandler(
  release: OpenRelease,
  opts: RpcHandlerOptions = defaultRpcHandlerOptions,
  shardSpec: string | null = null,
): RpcHandler {
  const indexVersion: string = release.indexVersion;
  const counts = new ResultCache<ReplyFor<'count'>>(opts.cacheEntries);
  const finds = new ResultCache<ReplyFor<'find'>>(opts.cacheEntries);
  const keyOf = (r: ShardSelection & { query: string }): string | null =>
    r.query.length > opts.cacheMaxQueryLength ? null : `${r.index}\0${r.yearMin ?? ''}\0${r.yearMax ?? ''}\0${r.query}`;
  // Built on first use: views restricted to a few shards (shard-view.ts) are made per request and rarely asked.
  let identity: ReturnType<typeof describeRelease> | undefined;
  const v2 = createV2Handler(release);
  const budgetFor = workBudgets(release, opts.work);
  const encoder = new TextEncoder();

  const indexOf = (name: string): ReleaseIndex => {
    const index = release.indexes.get(name);
    if (index === undefined) {
      throw new RequestRefused({ code: 'unknown_index', index: name, available: [...release.indexes.keys()] });
    }
    return index;
  };

  const count = (r: Extract<WorkerRequest, { kind: 'count' }>): ReplyFor<'count'> => {
    const q = encoder.encode(r.query);
    let total = 0;
    for (const shard of selectShards(indexOf(r.index), r)) total += shard.reader.count(q);
    return { kind: 'count', indexVersion, count: total };
  };

  const find = (r: Extract<WorkerRequest, { kind: 'find' }>): ReplyFor<'find'> => {
    const q = encoder.encode(r.query);
    const shards = selectShards(indexOf(r.index), r);
    const segments: [number, number][] = [];
    let total = 0;
    for (const shard of shards) {
      const { lo, hi } = shard.reader.find(q);
      segments.push([lo, hi]);
      total += hi - lo;
    }
    return {
      kind: 'find',
      indexVersion,
      count: total,
      segments,
      shardIds: shards.map((s) => s.shardId),
      shardYears: shards.map((s) => s.year),
    };
  };

  const getDoc = (r: Extract<WorkerRequest, { kind: 'get_doc' }>): ReplyFor<'get_doc'> => {
    const index = indexOf(r.index);
    const shards = selectShards(index, r);
    const shard = shards[r.s];
    if (shard === undefined)
      throw new RequestRefused({ code: 'shard_out_of_range', s: r.s, shardCount: shards.length });
    const q = encoder.encode(r.query);
    const { lo, hi } = shard.reader.find(q);
    // The rank must belong to this query's interval: any other rank would return an unrelated article.
    if (r.rank < lo || r.rank >= hi)
      throw new RequestRefused({ code: 'rank_out_of_range', s: r.s, rank: r.rank, lo, hi });
    const w = shard.reader.window(r.rank, q, r.maxCtxLen);
    const docIx = shard.docBase + w.doc;
    const meta = index.metadata(shard.year)?.get(docIx);
    return {
      kind: 'get_doc',
      indexVersion,
      doc: {
        shardId: shard.shardId,
        year: shard.year,
        docIx,
        docLen: w.docLen,
        dispLen: w.dispLen,
        needleOffset: w.needleOffset,
        text: w.text,
        spans: w.spans,
        metadata: meta ?? null,
      },
    };
  };

  const cached = <R extends Extract<WorkerRequest, { query: string }>, V>(
    cache: ResultCache<V>,
    r: R,
    compute: (r: R) => V,
  ): V => {
    const key = keyOf(r);
    if (key === null) return compute(r);
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const v = compute(r);
    cache.set(key, v);
    return v;
  };

  const handle = (request: WorkerRequest, budgetMs = Infinity): WorkerReply | PendingReply => {
    try {
      switch (request.kind) {
        case 'identity':
          return { kind: 'identity', indexVersion, identity: (identity ??= describeRelease(release, shardSpec)) };
        case 'count':
          return cached(counts, request, count);
        case 'find':
          return cached(finds, request, find);
        case 'get_doc':
          return getDoc(request);
        default: {
          // Every other kind is a v2 call (search-v2/calls). The clock is read here, not for every call: v1 counts
          // take microseconds and need no deadline.
          const work = budgetFor(performance.now() + budgetMs);
          return new PendingReply(work, v2(request, work));
        }
      }
    } catch (e) {
      if (e instanceof RequestRefused) return { kind: 'error', indexVersion, error: e.error };
      throw e;
    }
  };
  // The switch answers only v2 kinds with a PendingReply, which is what the first signature says.
  return handle as RpcHandler;
}
