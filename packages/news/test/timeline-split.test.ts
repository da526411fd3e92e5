/**
 * The gateway's timeline over several workers with dedupe past the story bound (gateway/cluster/timeline-split.ts),
 * run in process: each "worker" is the real call registry over the shards it serves, reached through a fan-out
 * that speaks the worker protocol (requests by kind, replies as JSON text). The cluster suite's corpora hold no
 * query past the real bound (1,000,000 occurrences), so the bound is forced to 0 here, as the domain tests do.
 */
import { describe, expect, it } from 'vitest';
import type { ReplicaSet } from '../src/gateway/cluster/replica-set.ts';
import type { FanOut } from '../src/gateway/cluster/fan-out.ts';
import type { Part } from '../src/gateway/cluster/merge.ts';
import { shardsUnavailable } from '../src/gateway/cluster/replica-set.ts';
import { timelineAcross } from '../src/gateway/cluster/timeline-split.ts';
import { V2_CALLS, type V2Kind, type WorkerReply } from '../src/protocol/index.ts';
import type { OpenRelease } from '../src/release/types.ts';
import {
  buildPlainRelease,
  randomStories,
  servedBy,
  SHARDS,
  withStories,
} from '../src/search-v2/sampled-release.fixture.ts';
import { defaultShareOptions } from '../src/search-v2/frequencies/article-share.ts';
import { combineTimeline, timeline } from '../src/search-v2/timeline.ts';
import type { TimelineRequest } from '../src/search-v2/types.ts';
import { WorkBudget } from '../src/work-budget/index.ts';

const SAMPLED = 0;

/** A fan-out to in-process workers, `owner[i]` serving SHARDS[i]; `failing` kinds fail as a lost worker does. */
function inProcessFan(whole: OpenRelease, owner: readonly number[], failing: ReadonlySet<string> = new Set()): FanOut {
  return {
    async run(_index, needed, build) {
      const groups = new Map<number, string[]>();
      for (const id of needed) {
        const w = owner[SHARDS.indexOf(id)] ?? 0;
        groups.set(w, [...(groups.get(w) ?? []), id]);
      }
      const parts: Part<WorkerReply>[] = [];
      for (const group of groups.values()) {
        const request = build(group, undefined as never) as { kind: V2Kind; body: never };
        if (failing.has(request.kind)) throw shardsUnavailable(group);
        const call = V2_CALLS[request.kind] as { run: (r: OpenRelease, b: never, w: WorkBudget) => unknown };
        const result = await call.run(servedBy(whole, group), request.body, WorkBudget.unlimited());
        const json = typeof result === 'string' ? result : JSON.stringify(result);
        parts.push({
          shards: group,
          reply: { kind: request.kind, indexVersion: 'stories-v1', outcome: { ok: true, json } } as WorkerReply,
        });
      }
      return parts;
    },
  };
}

/** The gateway's route for a timeline: the steps, with `years` (the counts) as the cluster client gathers them. */
function across(whole: OpenRelease, owner: readonly number[], body: TimelineRequest, failing?: ReadonlySet<string>) {
  const fan = inProcessFan(whole, owner, failing);
  const set = { expected: 'stories-v1' } as ReplicaSet;
  const ctx = { set, fan, ids: SHARDS, deadline: Infinity, kind: 'v2_timeline' as const };
  return timelineAcross(
    ctx,
    body,
    async (b) => {
      const parts = await fan.run('news', SHARDS, () => ({ kind: 'v2_timeline', body: b }), Infinity);
      const results = parts.map((p) => JSON.parse((p.reply as { outcome: { json: string } }).outcome.json));
      const json = JSON.stringify(combineTimeline(results, { order: SHARDS, indexVersion: 'stories-v1' }));
      return { kind: 'v2_timeline', indexVersion: 'stories-v1', outcome: { ok: true, json } } as WorkerReply;
    },
    SAMPLED,
  );
}

describe('the gateway timeline with dedupe past the story bound', () => {
  it('answers, byte for byte, what one worker holding every shard answers, for splits over two and three workers', async () => {
    const plain = await buildPlainRelease();
    const whole = withStories(plain, randomStories(Array.from({ length: 240 }, (_, i) => (i * 7919) % 97)));
    for (const dedupe of ['exact', 'near'] as const) {
      const body: TimelineRequest = { index: 'news', query: 'ab', dedupe, sample_size: 150, seed: 11 };
      const one = await timeline(whole, body, undefined, defaultShareOptions, SAMPLED);
      expect(one.stories_exact).toBe(false);
      for (const owner of [
        [0, 1, 0, 1],
        [2, 0, 1, 1],
      ]) {
        const reply = await across(whole, owner, body);
        expect(reply).toMatchObject({ kind: 'v2_timeline', outcome: { ok: true } });
        expect((reply as { outcome: { json: string } }).outcome.json).toBe(JSON.stringify(one));
      }
    }
  });

  it('fails with shards_unavailable (503), never a smaller answer, when a worker is lost at any step', async () => {
    const plain = await buildPlainRelease();
    const whole = withStories(plain, randomStories(Array.from({ length: 240 }, (_, i) => i % 5)));
    const body: TimelineRequest = { index: 'news', query: 'ab', dedupe: 'near', sample_size: 150 };
    for (const step of ['v2_estimate_intervals', 'v2_timeline', 'v2_estimate_resolve', 'v2_estimate_stories'])
      await expect(across(whole, [0, 1, 0, 1], body, new Set([step]))).rejects.toMatchObject({
        code: 'shards_unavailable',
      });
  });
});
