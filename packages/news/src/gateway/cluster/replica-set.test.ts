import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ReleaseShard, WorkerIdentity } from '../../protocol/index.ts';
import { GatewayError } from '../errors/index.ts';
import { createWorkerClient } from '../worker-client/index.ts';
import { ReplicaSet, type Replica, type Route } from './replica-set.ts';

// Four years of monthly shards; A serves 2019–2020, B and C both serve 2021–2022.
const RELEASE: ReleaseShard[] = [2019, 2020, 2021, 2022].flatMap((y) =>
  Array.from({ length: 12 }, (_, m) => ({ shardId: `${y}-${String(m + 1).padStart(2, '0')}`, year: String(y) })),
);
const idsOfYears = (from: number, to: number) =>
  RELEASE.filter((s) => Number(s.year) >= from && Number(s.year) <= to).map((s) => s.shardId);

function identity(served: readonly string[], indexVersion = 'v1'): WorkerIdentity {
  const shards = RELEASE.filter((s) => served.includes(s.shardId)).map((s, i) => ({
    ...s,
    docBase: i * 10,
    docCount: 10,
    textBytes: 1000,
  }));
  return {
    indexVersion,
    shardSpec: null,
    indexes: [{ name: 'news', shards, releaseShards: RELEASE, hasCountryAttribution: false }],
  };
}

// Real clients to a port nobody listens on: the set never calls them, it only routes.
const clients = ['a', 'b', 'c'].map(() => createWorkerClient('http://127.0.0.1:9'));
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

function cluster() {
  const replicas: Replica[] = clients.map((client, i) => ({
    url: `http://replica-${i}`,
    endpoint: { url: `http://replica-${i}`, shards: null },
    client,
    status: 'unknown',
    reason: '',
    identity: null,
    served: new Map(),
  }));
  const set = new ReplicaSet(replicas, 'v1');
  const [a, b, c] = replicas as [Replica, Replica, Replica];
  set.observe(a, identity(idsOfYears(2019, 2020)));
  set.observe(b, identity(idsOfYears(2021, 2022)));
  set.observe(c, identity(idsOfYears(2021, 2022)));
  return { set, a, b, c };
}

/** Which replica answers each shard, checking that every needed shard is answered exactly once. */
function owners(routes: readonly Route[], needed: readonly string[]): Map<string, Replica> {
  const out = new Map<string, Replica>();
  for (const { replica, group } of routes)
    for (const id of group) {
      expect(out.has(id)).toBe(false);
      out.set(id, replica);
    }
  expect([...out.keys()].sort()).toEqual([...needed].sort());
  return out;
}

const NONE: ReadonlySet<Replica> = new Set();

describe('ReplicaSet', () => {
  it('selects the shards of a year range as a plain filter does, the same list for the same range', () => {
    const { set } = cluster();
    const year = fc.option(fc.integer({ min: 2015, max: 2026 }), { nil: null });
    fc.assert(
      fc.property(year, year, (min, max) => {
        const want = RELEASE.filter(
          (s) => Number(s.year) >= (min ?? -Infinity) && Number(s.year) <= (max ?? Infinity),
        ).map((s) => s.shardId);
        const got = set.idsInYears('news', min, max);
        expect(got).toEqual(want.length === 0 ? null : want);
        expect(set.idsInYears('news', min, max)).toBe(got);
      }),
    );
    expect(set.idsInYears('other', 2019, 2020)).toBeNull();
  });

  it('routes every shard to one up replica and turns between the replicas of the same shards', () => {
    const { set, a, b, c } = cluster();
    const all = set.idsInYears('news', null, null) ?? [];
    const seen = new Set<Replica>();
    for (let turn = 0; turn < 6; turn++) {
      const routes = set.assign('news', all, NONE);
      const by = owners(routes, all);
      expect(by.get('2019-01')).toBe(a);
      seen.add(by.get('2022-12') as Replica);
      // A holds its shards alone; B's shards have C to fall back on, and the other way round.
      for (const r of routes) expect(r.alternative).toBe(r.replica !== a);
    }
    expect([...seen].sort((x, y) => x.url.localeCompare(y.url))).toEqual([b, c]);
  });

  it('re-plans at once when a replica goes down, comes back, is marked unusable or serves other shards', () => {
    const { set, a, b, c } = cluster();
    const late = set.idsInYears('news', 2021, null) ?? [];
    for (let turn = 0; turn < 3; turn++) set.assign('news', late, NONE);

    set.fail(b, 'reset');
    for (let turn = 0; turn < 3; turn++) {
      const routes = set.assign('news', late, NONE);
      expect([...owners(routes, late).values()].every((r) => r === c)).toBe(true);
      expect(routes.every((r) => !r.alternative)).toBe(true);
    }

    set.observe(b, identity(idsOfYears(2021, 2022)));
    const back = new Set<Replica>();
    for (let turn = 0; turn < 3; turn++) for (const r of set.assign('news', late, NONE)) back.add(r.replica);
    expect(back.has(b)).toBe(true);

    // The fan-out marks a replica answering another release by its status alone.
    c.status = 'wrong_release';
    for (let turn = 0; turn < 3; turn++) expect(set.assign('news', late, NONE).map((r) => r.replica)).toEqual([b]);

    // B now serves 2021 only (restarted with other --shards): 2022 has no replica left.
    set.observe(b, identity(idsOfYears(2021, 2021)));
    const refusal = (() => {
      try {
        set.assign('news', late, NONE);
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(refusal).toBeInstanceOf(GatewayError);
    expect((refusal as GatewayError).code).toBe('shards_unavailable');
    expect((refusal as GatewayError).context).toEqual({ missing_shards: idsOfYears(2022, 2022) });
    expect(
      owners(set.assign('news', set.idsInYears('news', 2019, 2021) ?? [], NONE), idsOfYears(2019, 2021)).get('2020-06'),
    ).toBe(a);
  });

  it('never routes to a replica the caller is avoiding (a retry after a failed attempt)', () => {
    const { set, b, c } = cluster();
    const late = set.idsInYears('news', 2021, 2022) ?? [];
    for (let turn = 0; turn < 4; turn++) {
      const routes = set.assign('news', late, new Set([b]));
      expect(routes.map((r) => r.replica)).toEqual([c]);
      expect(routes[0]?.alternative).toBe(false);
    }
    expect(owners(set.assign('news', late, NONE), late).size).toBe(late.length);
  });
});
