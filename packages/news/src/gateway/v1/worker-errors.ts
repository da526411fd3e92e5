import type { WorkerError } from '../../protocol/index.ts';
import { assertNever } from '../../protocol/index.ts';
import { GatewayError, ValidationFailed } from '../errors/index.ts';
import { issue } from '../validation/index.ts';

/** Maps a worker's refusal of a v1 request to the 422 a FastAPI client expects, located at the offending field. */
export function v1ErrorFromWorker(error: WorkerError, input: { index: string; s?: number; rank?: number }): Error {
  switch (error.code) {
    case 'unknown_index':
      return new ValidationFailed([issue.literal(['body', 'index'], input.index, error.available)]);
    case 'shard_out_of_range':
      return new ValidationFailed([issue.lessThan(['body', 's'], input.s, error.shardCount)]);
    case 'rank_out_of_range': {
      const loc = ['body', 'rank'];
      if (error.lo === error.hi) {
        return new ValidationFailed([
          issue.valueError(
            loc,
            input.rank,
            `the query does not occur in shard ${error.s} (its interval [${error.lo}, ${error.hi}) is empty), so no rank resolves`,
          ),
        ]);
      }
      return new ValidationFailed([
        error.rank < error.lo
          ? issue.greaterThanEqual(loc, input.rank, error.lo)
          : issue.lessThan(loc, input.rank, error.hi),
      ]);
    }
    case 'bad_request':
      // The gateway built a message the worker does not accept: a deployment mismatch, not the client's fault.
      return new GatewayError('worker_unavailable', `The search worker refused the request (${error.message}).`);
    case 'shards_not_served':
      return new GatewayError(
        'worker_unavailable',
        `The search worker does not serve shards ${error.shards.join(', ')}.`,
      );
    case 'shard_damaged':
      return shardDamaged(error);
    default:
      return assertNever(error, 'worker error');
  }
}

/**
 * A shard the worker found damaged (its files differ from the release's checksums) is out of service: 503 with the
 * shards named, for v1 and v2 alike, rather than an answer computed from damaged data.
 */
export function shardDamaged(error: Extract<WorkerError, { code: 'shard_damaged' }>): GatewayError {
  return new GatewayError(
    'shards_unavailable',
    `Shard ${error.shards.join(', ')} of this release is damaged on the search worker and out of service; narrow the years to leave it out, or try again after the operator restores it.`,
    { missing_shards: error.shards },
  );
}
