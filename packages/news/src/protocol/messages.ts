/**
 * The gateway⇄worker protocol: one JSON message per call, tagged by `kind`, as the body of `POST /rpc` or as a frame of
 * the upgraded `GET /rpc` stream (stream-framing.ts; the gateway uses the stream).
 * The worker answers every request with a reply carrying the release it serves (`indexVersion`),
 * so the gateway notices a worker restarted on another release without an extra round trip.
 * Lengths and offsets are UTF-8 bytes, as in the public API.
 */

import type { ArticleMetadata } from '../metadata/types.ts';
import type { V2WorkerReply, V2WorkerRequest } from './v2-messages.ts';

/** Path of the single RPC route on the worker. */
export const RPC_PATH = '/rpc';
/** Bumped when a message changes shape; the worker refuses other versions so mixed deployments fail loudly. 5: `budgetMs`, cancel frames. */
export const PROTOCOL_VERSION = 5;

/** Which shards a query looks at: every shard of `index` whose crawl year lies in [yearMin, yearMax]. */
export interface ShardSelection {
  readonly index: string;
  readonly yearMin: number | null;
  readonly yearMax: number | null;
}

export interface IdentityRequest {
  readonly kind: 'identity';
}
export interface CountRequest extends ShardSelection {
  readonly kind: 'count';
  readonly query: string;
}
export interface FindRequest extends ShardSelection {
  readonly kind: 'find';
  readonly query: string;
}
export interface GetDocRequest extends ShardSelection {
  readonly kind: 'get_doc';
  readonly query: string;
  /** Position in the find result's shard list (chronological shards inside the year range). */
  readonly s: number;
  readonly rank: number;
  /** Context bytes on each side of the match. */
  readonly maxCtxLen: number;
}

export type WorkerRequest = IdentityRequest | CountRequest | FindRequest | GetDocRequest | V2WorkerRequest;
export type WorkerRequestKind = WorkerRequest['kind'];

/** The envelope the gateway sends. */
export interface RpcEnvelope {
  readonly protocol: number;
  readonly request: WorkerRequest;
  /**
   * Answer from these served shards only (the gateway's routing: with replicas holding overlapping sets, each shard
   * must be counted by exactly one of them). Absent: every shard the worker serves.
   */
  readonly shards?: readonly string[];
  /**
   * Milliseconds left until the gateway stops waiting, when it sent the call: the worker stops working on the call
   * once they have passed on its own clock (relative, since the two processes' clocks are not comparable).
   * Absent: no deadline (a tool posting to `/rpc` by hand).
   */
  readonly budgetMs?: number;
}

export interface ShardIdentity {
  readonly shardId: string;
  readonly year: string;
  readonly docBase: number;
  readonly docCount: number;
  readonly textBytes: number;
}

/** A shard of the release's manifest, served here or not. */
export interface ReleaseShard {
  readonly shardId: string;
  readonly year: string;
}

export interface IndexIdentity {
  readonly name: string;
  /** The shards this worker serves, chronological. */
  readonly shards: readonly ShardIdentity[];
  /** Every shard of the release's index (chronological), so a gateway knows the whole set from any one worker. */
  readonly releaseShards: readonly ReleaseShard[];
  readonly hasCountryAttribution: boolean;
}

/** What the worker serves: the release identity and the shards it serves of it. */
export interface WorkerIdentity {
  readonly indexVersion: string;
  /** The worker's `--shards` as given, or null when it serves the whole release. */
  readonly shardSpec: string | null;
  readonly indexes: readonly IndexIdentity[];
  /**
   * Shards the worker found damaged after it started (`--verify sizes`' background check, src/release/DESIGN.md "Verification on open"): no
   * longer in `indexes[].shards`, and every request that touches one is answered `shard_damaged`. Absent: none.
   */
  readonly damagedShards?: readonly DamagedShard[];
}

export interface DamagedShard {
  readonly index: string;
  readonly shardId: string;
  /** Which file differs from the manifest and how. */
  readonly reason: string;
}

/** Every stored metadata field of one article (the store's own shape); the public API projects it (v1 keeps only its own fields). */
export type WireMetadata = ArticleMetadata;

export interface DocResult {
  readonly shardId: string;
  readonly year: string;
  /** Per-year article number (shard docBase + shard-local doc). */
  readonly docIx: number;
  readonly docLen: number;
  readonly dispLen: number;
  readonly needleOffset: number;
  readonly text: string;
  readonly spans: readonly (readonly [string, string | null])[];
  /** Null when the release has no metadata store for the year. */
  readonly metadata: WireMetadata | null;
}

export type WorkerError =
  | { readonly code: 'unknown_index'; readonly index: string; readonly available: readonly string[] }
  | { readonly code: 'shard_out_of_range'; readonly s: number; readonly shardCount: number }
  | {
      readonly code: 'rank_out_of_range';
      readonly s: number;
      readonly rank: number;
      readonly lo: number;
      readonly hi: number;
    }
  | { readonly code: 'bad_request'; readonly message: string }
  /** The gateway asked about shards this worker does not serve (it was restarted with other --shards). */
  | { readonly code: 'shards_not_served'; readonly shards: readonly string[]; readonly shardSpec: string | null }
  /** The request touches shards the worker found damaged (their files differ from the manifest): out of service. */
  | { readonly code: 'shard_damaged'; readonly shards: readonly string[]; readonly detail: string };

export type WorkerErrorCode = WorkerError['code'];

export type WorkerReply =
  | { readonly kind: 'identity'; readonly indexVersion: string; readonly identity: WorkerIdentity }
  | { readonly kind: 'count'; readonly indexVersion: string; readonly count: number }
  | {
      readonly kind: 'find';
      readonly indexVersion: string;
      readonly count: number;
      /** [lo, hi) per selected shard, aligned with shardIds and shardYears. */
      readonly segments: readonly (readonly [number, number])[];
      readonly shardIds: readonly string[];
      readonly shardYears: readonly string[];
    }
  | { readonly kind: 'get_doc'; readonly indexVersion: string; readonly doc: DocResult }
  | { readonly kind: 'error'; readonly indexVersion: string; readonly error: WorkerError }
  | V2WorkerReply;

/** The reply kind that answers a given request kind (errors aside). */
export type ReplyFor<K extends WorkerRequestKind> = Extract<WorkerReply, { kind: K }>;
