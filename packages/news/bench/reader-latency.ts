/**
 * In-process latency of one shard reader (any kind): count, locate, get_doc windows and 1,000-rank pages, shared by
 * bench:compressed (one shard) and bench:scale (every part of a month). Microseconds per call.
 */
import { openShard, type ShardReader } from '../src/shard/index.ts';
import { createRandom } from '../src/corpus/synthetic.ts';
import { percentiles, type Percentiles } from './index-bench-measure.ts';

const now = (): number => Number(process.hrtime.bigint()) / 1000;

/**
 * 1,000 mixed queries from the readers' own articles (a random reader, then a random article): 30% 1–4 chars,
 * 50% 5–20, 10% 40–100, 10% absent. bench:index, bench:compressed and bench:scale draw the same way.
 */
export function mixedQueries(readers: readonly ShardReader[], n = 1000): Buffer[] {
  const random = createRandom(42);
  const out: Buffer[] = [];
  while (out.length < n) {
    const r = readers[Math.floor(random() * readers.length)];
    if (!r || r.stats.docCount === 0) continue;
    const chars = [...r.documentBytes(Math.floor(random() * r.stats.docCount)).toString('utf8')];
    const u = random();
    const len =
      u < 0.3 ? 1 + Math.floor(random() * 4) : u < 0.8 ? 5 + Math.floor(random() * 16) : 40 + Math.floor(random() * 60);
    const start = Math.floor(random() * Math.max(1, chars.length - len));
    const q = chars.slice(start, start + len).join('');
    out.push(Buffer.from(u > 0.9 ? `${q}\u2603absent` : q, 'utf8'));
  }
  return out;
}

export interface Latency {
  openSeconds: number;
  rssMB: number;
  count: Percentiles;
  locate: Percentiles;
  window: Percentiles;
  page: Percentiles;
  /** Mean CPU microseconds per call (user + system of this process, one pass per operation): on a shared machine wall percentiles include waiting for a core, CPU time does not. */
  cpu: { count: number; locate: number; window: number; page: number };
}

/** Mean CPU microseconds of `f` over `n` calls. */
function cpuPerCall(n: number, f: () => void): number {
  const start = process.cpuUsage();
  f();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / Math.max(1, n);
}

export function openMeasured(dir: string): { reader: ShardReader; openSeconds: number; rssMB: number } {
  const rss = process.memoryUsage().rss;
  const t = performance.now();
  const reader = openShard(dir, 'memory');
  return { reader, openSeconds: (performance.now() - t) / 1000, rssMB: (process.memoryUsage().rss - rss) / 1e6 };
}

/** Warm-up round, then measured round; per call in microseconds (page: 1,000 ranks located + their articles' lengths). */
export function measureReader(
  o: ReturnType<typeof openMeasured>,
  queries: Buffer[],
  checkAgainst?: ShardReader,
): Latency {
  const reader = o.reader;
  const random = createRandom(7);
  const ranks = Array.from({ length: 2000 }, () => Math.floor(random() * reader.stats.textBytes));
  const frequent = queries
    .map((q) => reader.find(q))
    .filter((f) => f.hi - f.lo >= 1000)
    .slice(0, 50);
  const samples = { count: [] as number[], locate: [] as number[], window: [] as number[], page: [] as number[] };
  for (let round = 0; round < 2; round++) {
    for (const q of queries) {
      const s = now();
      reader.count(q);
      if (round) samples.count.push(now() - s);
    }
    for (const rank of ranks) {
      let s = now();
      const at = reader.locate(rank);
      if (round) samples.locate.push(now() - s);
      s = now();
      reader.window(rank, queries[rank % queries.length] as Buffer, 1000);
      if (round) samples.window.push(now() - s);
      if (checkAgainst && round === 0 && checkAgainst.locate(rank).pos !== at.pos)
        throw new Error(`rank ${rank}: kinds disagree`);
    }
    for (const f of frequent) {
      const s = now();
      for (let rank = f.lo; rank < f.lo + 1000; rank++) reader.documentLength(reader.locate(rank).doc);
      if (round) samples.page.push(now() - s);
    }
  }
  if (checkAgainst)
    for (const q of queries)
      if (JSON.stringify(checkAgainst.find(q)) !== JSON.stringify(reader.find(q)))
        throw new Error(`find ${q.toString()}: kinds disagree`);
  const cpu = {
    count: cpuPerCall(queries.length, () => {
      for (const q of queries) reader.count(q);
    }),
    locate: cpuPerCall(ranks.length, () => {
      for (const rank of ranks) reader.locate(rank);
    }),
    window: cpuPerCall(ranks.length, () => {
      for (const rank of ranks) reader.window(rank, queries[rank % queries.length] as Buffer, 1000);
    }),
    page: cpuPerCall(frequent.length, () => {
      for (const f of frequent)
        for (let rank = f.lo; rank < f.lo + 1000; rank++) reader.documentLength(reader.locate(rank).doc);
    }),
  };
  return {
    openSeconds: o.openSeconds,
    rssMB: o.rssMB,
    count: percentiles(samples.count),
    locate: percentiles(samples.locate),
    window: percentiles(samples.window),
    page: percentiles(samples.page),
    cpu,
  };
}
