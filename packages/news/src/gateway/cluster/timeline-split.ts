import {
  STORY_TIMELINE_OCCURRENCES,
  countsOnly,
  storiesToCount,
  storySampleDraws,
  storySampleRequest,
  withSampledStories,
  type V2TimelineBody,
  type V2TimelineResult,
  type WorkerReply,
} from '../../protocol/index.ts';
import { copiesAcross, intervalsAcross, resolveAcross, type StepContext } from './estimate-split.ts';

/**
 * v2 timeline with dedupe over shards on several workers (search-v2/timeline-sampled.ts): the candidate intervals
 * of every worker decide, as one worker holding every shard decides, whether the stories are counted exactly (the
 * call as a `years` call: `counts` of the body) or estimated; then the counts without dedupe, the estimate's draws
 * resolved and the sampled stories' copies on every worker, finished by the same `withSampledStories`. A worker
 * lost at any step fails the request as its step's refusal (503), never a smaller answer. `bound`: the story bound
 * (tests force it low, as they do a worker's).
 */
export async function timelineAcross(
  ctx: StepContext,
  body: V2TimelineBody,
  counts: (body: V2TimelineBody) => Promise<WorkerReply>,
  bound: number = STORY_TIMELINE_OCCURRENCES,
): Promise<WorkerReply> {
  const sample = storySampleRequest(body);
  const plan = await intervalsAcross(ctx, sample);
  if (!plan.ok) return plan.reply;
  const draws = storySampleDraws(body, plan.value, bound);
  if (draws === null) return counts(body);
  const reply = await counts(countsOnly(body));
  if (reply.kind !== 'v2_timeline' || !reply.outcome.ok) return reply;
  const answer = JSON.parse(reply.outcome.json) as V2TimelineResult;
  const resolved = await resolveAcross(ctx, sample, plan.value, draws);
  if (!resolved.ok) return resolved.reply;
  const copies = await copiesAcross(ctx, sample, storiesToCount(sample, draws, resolved.value));
  if (!copies.ok) return copies.reply;
  const result = withSampledStories(answer, body, plan.value, resolved.value, copies.value);
  return { kind: 'v2_timeline', indexVersion: ctx.set.expected, outcome: { ok: true, json: JSON.stringify(result) } };
}
