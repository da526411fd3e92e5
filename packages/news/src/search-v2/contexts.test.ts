import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenRelease } from '../release/types.ts';
import { contexts, find, V2_LIMITS } from './index.ts';
import { buildMemoryRelease } from './memory-release.fixture.ts';
import { rejectionOf } from './v2-error.fixture.ts';

const VERSION = 'ctx-1';
const LONG = `${'Vorwort '.repeat(40)}Die Bundesregierung tagt. ${'Nachwort '.repeat(40)}`;
let release: OpenRelease;
beforeAll(async () => {
  release = await buildMemoryRelease(
    [
      { shard: '2020-01', text: 'Die Bundesregierung sagt nein.', meta: { title: 'Nein', hostname: 'a.example' } },
      { shard: '2020-01', text: LONG, meta: { title: 'Lang', hostname: 'b.example' } },
      {
        shard: '2020-01',
        text: 'Ärger über die Bundesregierung – ganz schön groß',
        meta: { title: null, hostname: 'c.example' },
      },
    ],
    { indexVersion: VERSION },
  );
});

async function page(context_bytes?: number) {
  const f = await find(release, { index: 'news', query: 'Bundesregierung' });
  const [lo, hi] = f.segment_by_shard[0] as [number, number];
  return {
    index: 'news',
    expected_index_version: VERSION,
    shard_id: '2020-01',
    rank_from: lo,
    rank_to: hi,
    query: 'Bundesregierung',
    ...(context_bytes === undefined ? {} : { context_bytes }),
  };
}

describe('contexts', () => {
  it('returns one line per rank with left, match and right that rebuild the article text around the match', async () => {
    const res = await contexts(release, await page());
    expect(res.contexts).toHaveLength(3);
    expect(res.context_bytes).toBe(V2_LIMITS.contextBytesDefault);
    const texts = new Map([
      [0, 'Die Bundesregierung sagt nein.'],
      [1, LONG],
      [2, 'Ärger über die Bundesregierung – ganz schön groß'],
    ]);
    for (const line of res.contexts) {
      expect(line.match).toBe('Bundesregierung');
      const text = Buffer.from(texts.get(line.doc_ix) as string);
      const left = Buffer.from(line.left);
      const right = Buffer.from(line.right);
      expect(left.length).toBeLessThanOrEqual(60);
      expect(right.length).toBeLessThanOrEqual(60);
      expect(text.subarray(line.offset - left.length, line.offset + 15 + right.length).toString()).toBe(
        line.left + line.match + line.right,
      );
    }
    expect(res.contexts.map((l) => l.rank)).toEqual([...res.contexts.map((l) => l.rank)].sort((a, b) => a - b));
    expect(res.contexts.find((l) => l.doc_ix === 0)).toMatchObject({
      left: 'Die ',
      right: ' sagt nein.',
      title: 'Nein',
      hostname: 'a.example',
    });
  });

  it('cuts contexts inward to whole UTF-8 characters', async () => {
    const res = await contexts(release, await page(5));
    const line = res.contexts.find((l) => l.doc_ix === 2);
    // "die " is 4 bytes, "über " would need 6: the 5-byte left context stops after the space before "die".
    expect(line?.left).toBe(' die ');
    expect(line?.right).toBe(' – ');
    for (const l of res.contexts) expect(l.left + l.right).not.toMatch(/\uFFFD/);
  });

  it('refuses ranks outside the query interval, too many ranks and a stale release', async () => {
    const p = await page();
    expect((await rejectionOf(() => contexts(release, { ...p, rank_to: p.rank_to + 1 }))).code).toBe(
      'rank_out_of_range',
    );
    expect(
      (await rejectionOf(() => contexts(release, { ...p, rank_from: 0, rank_to: V2_LIMITS.contextsRanks + 1 }))).code,
    ).toBe('too_many_ranks');
    expect((await rejectionOf(() => contexts(release, { ...p, expected_index_version: 'old' }))).code).toBe(
      'stale_index_version',
    );
    expect((await rejectionOf(() => contexts(release, { ...p, query: '' }))).code).toBe('invalid_query');
  });
});
