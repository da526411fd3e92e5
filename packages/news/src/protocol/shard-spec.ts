/**
 * Shard sets as operators write them (`news worker --shards`, the gateway topology file): a comma-separated list
 * of shard ids (`2019-03`, `2019`, `2019-03.p001`) and inclusive ranges of crawl periods (`2019-01..2019-12`).
 * A range holds every shard whose crawl period lies between its ends, parts included: `2019-01..2019-03` holds
 * `2019-03.p001`; an end that is a year (`2018..2019`) covers that year's months.
 */

/** A spec that does not parse, or names shards a release does not have. */
export class ShardSpecError extends Error {
  override readonly name = 'ShardSpecError';
}

export type ShardSpecItem =
  { readonly kind: 'id'; readonly id: string } | { readonly kind: 'range'; readonly from: string; readonly to: string };

export interface ShardSpec {
  /** The spec as written, for messages and identity answers. */
  readonly text: string;
  readonly items: readonly ShardSpecItem[];
}

const SHARD_ID = /^\d{4}(-\d{2})?(\.p\d{3})?$/;
const PERIOD = /^\d{4}(-\d{2})?$/;

/** The crawl period of a shard id: `2019-03.p001` → `2019-03`. */
function periodOf(shardId: string): string {
  const dot = shardId.indexOf('.');
  return dot === -1 ? shardId : shardId.slice(0, dot);
}

/**
 * Parses a shard spec; throws ShardSpecError with what to write instead.
 * @example parseShardSpec('2019-01..2019-06,2020-02.p001').items.length // 2
 */
export function parseShardSpec(text: string): ShardSpec {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) {
    throw new ShardSpecError(
      `shard spec ${JSON.stringify(text)} has an empty item; write ids or ranges separated by commas, e.g. 2019-01..2019-06,2020-02`,
    );
  }
  const items = parts.map((p): ShardSpecItem => {
    const range = p.split('..');
    if (range.length === 1) {
      if (!SHARD_ID.test(p))
        throw new ShardSpecError(`shard id ${JSON.stringify(p)} is not YYYY, YYYY-MM or YYYY-MM.pNNN`);
      return { kind: 'id', id: p };
    }
    const [from, to] = range as [string, string];
    if (range.length !== 2 || !PERIOD.test(from) || !PERIOD.test(to)) {
      throw new ShardSpecError(
        `shard range ${JSON.stringify(p)} is not FROM..TO with crawl periods (YYYY or YYYY-MM), e.g. 2019-01..2019-12`,
      );
    }
    if (from > to) throw new ShardSpecError(`shard range ${JSON.stringify(p)} ends before it starts`);
    return { kind: 'range', from, to };
  });
  return { text, items };
}

function inRange(shardId: string, from: string, to: string): boolean {
  const period = periodOf(shardId);
  // A year end covers its months: `2019-07` is within `..2019`.
  return period >= from && (period <= to || period.startsWith(`${to}-`));
}

/** Whether the spec holds a shard id. */
export function specHolds(spec: ShardSpec, shardId: string): boolean {
  return spec.items.some((it) => (it.kind === 'id' ? it.id === shardId : inRange(shardId, it.from, it.to)));
}

/**
 * The shards of `available` (kept in their order) the spec selects. Every listed id must exist and every range
 * must hold at least one shard: a spec that selects nothing where the operator meant something is a mistake.
 */
export function selectShardIds(spec: ShardSpec, available: readonly string[]): string[] {
  const have = new Set(available);
  const unmatched = spec.items.filter((it) =>
    it.kind === 'id' ? !have.has(it.id) : !available.some((s) => inRange(s, it.from, it.to)),
  );
  if (unmatched.length > 0) {
    const shown = unmatched.map((it) => (it.kind === 'id' ? it.id : `${it.from}..${it.to}`)).join(', ');
    const first = available[0];
    const last = available.at(-1);
    const has = first === undefined ? 'no shards' : `${available.length} shards, ${first} to ${last}`;
    throw new ShardSpecError(`--shards ${spec.text}: ${shown} matches no shard of the release (it has ${has})`);
  }
  return available.filter((s) => specHolds(spec, s));
}
