/** A subcorpus as a range of crawl periods, inclusive (`YYYY-MM` or `YYYY` for yearly shards). */
export interface PeriodRange {
  readonly from: string;
  readonly to: string;
}

/** The API's bound on the periods of one subcorpus. */
export const MAX_RANGE_PERIODS = 240;

/**
 * The crawl periods of a release, chronological, from its shard ids (a split period's parts, `2024-03.1`, are one).
 * @example periodsOfShards(['2024-03.1', '2024-01', '2024-03.2']) // ['2024-01', '2024-03']
 */
export function periodsOfShards(shardIds: readonly string[]): string[] {
  return [...new Set(shardIds.map((id) => (id.includes('.') ? id.slice(0, id.indexOf('.')) : id)))].sort();
}

/** The periods a range covers among `all` (empty when an end is unknown or the ends are reversed). */
export function rangePeriods(all: readonly string[], r: PeriodRange): string[] {
  const lo = all.indexOf(r.from);
  const hi = all.indexOf(r.to);
  return lo === -1 || hi === -1 || lo > hi ? [] : all.slice(lo, hi + 1);
}

/**
 * Two ranges to start with: the last period against every one before it (the newest month against the rest).
 * @example defaultRanges(['2024-01', '2024-02', '2024-03']) // { a: 2024-03…2024-03, b: 2024-01…2024-02 }
 */
export function defaultRanges(all: readonly string[]): { a: PeriodRange; b: PeriodRange } | null {
  const last = all.at(-1);
  const first = all[0];
  const before = all.at(-2);
  if (last === undefined || first === undefined || before === undefined) return null;
  return { a: { from: last, to: last }, b: { from: first, to: before } };
}

/** `2024-01..2024-03` in the URL (`kw_a`, `kw_b`); null when malformed. */
export function parseRange(text: string | null): PeriodRange | null {
  const m = /^(\d{4}(?:-\d{2})?)\.\.(\d{4}(?:-\d{2})?)$/.exec(text ?? '');
  return m === null ? null : { from: m[1] as string, to: m[2] as string };
}

export const formatRange = (r: PeriodRange): string => `${r.from}..${r.to}`;

/** A range in words. @example describeRange({ from: '2024-01', to: '2024-01' }) // '2024-01' */
export const describeRange = (r: PeriodRange): string => (r.from === r.to ? r.from : `${r.from} to ${r.to}`);
