import {
  V2_LIMITS,
  type V2ErrorBody,
  type V2MetadataBody,
  type V2MetadataResult,
  type V2WorkerReply,
  type WorkerReply,
} from '../../protocol/index.ts';
import type { FanOut } from './fan-out.ts';
import { mergeV2Metadata } from './merge.ts';
import type { ReplicaSet } from './replica-set.ts';

type MetadataReply = Extract<V2WorkerReply, { kind: 'v2_metadata' }>;

/** A refusal with the request position of the reference it is about, for choosing the one a single worker gives. */
function globalError(
  error: V2ErrorBody,
  positions: readonly number[],
  refs: V2MetadataBody['documents'],
): { at: number; body: V2ErrorBody } {
  if (error.code === 'invalid_doc_ix' && typeof error.position === 'number') {
    const at = positions[error.position] ?? error.position;
    return {
      at,
      body: {
        ...error,
        position: at,
        detail: error.detail.replace(`documents[${error.position}]`, `documents[${at}]`),
      },
    };
  }
  if (error.code === 'year_store_missing' || error.code === 'unknown_year' || error.code === 'invalid_year')
    return { at: refs.findIndex((r) => r.year === error.year), body: error };
  // Release, index and list-length refusals do not depend on the references: every worker gives the same one.
  return { at: -1, body: error };
}

/** What one worker answering every reference would send when the merged text passes 16 MiB. */
function capped(json: string): V2ErrorBody | null {
  if (json.length * 3 <= V2_LIMITS.metadataResponseBytes) return null;
  const bytes = Buffer.byteLength(json);
  if (bytes <= V2_LIMITS.metadataResponseBytes) return null;
  return {
    limit: V2_LIMITS.metadataResponseBytes,
    bytes,
    detail: `the response would be ${bytes} bytes, over the ${V2_LIMITS.metadataResponseBytes}-byte limit; retry with fewer references`,
    code: 'response_too_large',
  };
}

/**
 * v2 metadata over workers holding different years: each year's references go to a replica holding a shard of
 * that year (its store is per year, so any such replica has every row), answers go back in request order, and a
 * refusal is the one a single worker would give for the first failing reference.
 */
export async function splitMetadata(
  set: ReplicaSet,
  fan: FanOut,
  body: V2MetadataBody,
  deadline: number,
): Promise<WorkerReply> {
  const index = body.index;
  const shards = set.shardsOf(index) ?? [];
  const refs = body.documents;
  // One shard per year stands for the year's store; a year without shards is refused by whichever worker gets it.
  const shardOfYear = new Map<string, string>();
  for (const s of shards) if (!shardOfYear.has(s.year)) shardOfYear.set(s.year, s.shardId);
  const positionsOf = (years: ReadonlySet<string>) => refs.flatMap((r, i) => (years.has(r.year) ? [i] : []));
  const needed = [...new Set(refs.map((r) => shardOfYear.get(r.year)).filter((s): s is string => s !== undefined))];
  const yearOfShard = new Map([...shardOfYear].map(([y, s]) => [s, y]));
  const unknownYears = new Set(refs.map((r) => r.year).filter((y) => !shardOfYear.has(y)));

  // The group holding the first needed shard (or the only, empty one) also carries the references of years no
  // shard has, so they are refused as by one worker; the rule depends on the group alone, so retries keep it.
  const yearsOf = (group: readonly string[]) => {
    const years = new Set(group.map((s) => yearOfShard.get(s) as string));
    if (group.length === 0 || group.includes(needed[0] as string)) for (const y of unknownYears) years.add(y);
    return years;
  };
  const build = (group: readonly string[]) => ({
    kind: 'v2_metadata' as const,
    body: {
      ...body,
      documents: positionsOf(yearsOf(group)).map((i) => refs[i] as V2MetadataBody['documents'][number]),
    },
  });
  const parts = await fan.run(index, needed, build, deadline);
  if (parts.length === 1) return (parts[0] as { reply: WorkerReply }).reply;

  const refused = parts.find((p) => p.reply.kind === 'error');
  if (refused !== undefined) return refused.reply;
  const answered = parts.map((p) => ({ positions: positionsOf(yearsOf(p.shards)), reply: p.reply as MetadataReply }));
  const refusals = answered.flatMap(({ positions, reply }) =>
    reply.outcome.ok ? [] : [globalError(reply.outcome.error, positions, refs)],
  );
  if (refusals.length > 0) {
    const first = refusals.reduce((a, b) => (b.at < a.at ? b : a));
    return { kind: 'v2_metadata', indexVersion: set.expected, outcome: { ok: false, error: first.body } };
  }
  const merged = mergeV2Metadata(
    refs.length,
    answered.map(({ positions, reply }) => ({
      positions,
      result: JSON.parse((reply.outcome as { json: string }).json) as V2MetadataResult,
    })),
    set.expected,
  );
  const json = JSON.stringify(merged);
  const tooLarge = capped(json);
  return {
    kind: 'v2_metadata',
    indexVersion: set.expected,
    outcome: tooLarge === null ? { ok: true, json } : { ok: false, error: tooLarge },
  };
}
