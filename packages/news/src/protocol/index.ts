export * from './messages.ts';
export { assertNever } from './assert-never.ts';
export { decodeBudget, decodeEnvelope, decodeShardRestriction, encodeEnvelope, ProtocolError } from './decode.ts';
export {
  parseShardSpec,
  selectShardIds,
  specHolds,
  ShardSpecError,
  type ShardSpec,
  type ShardSpecItem,
} from './shard-spec.ts';
export * from './v2-messages.ts';
export { decodeReply, encodeReply, SPLIT_REPLY_TYPE } from './reply-framing.ts';
export {
  encodeFrame,
  FrameReader,
  FrameTooLarge,
  FrameType,
  MAX_FRAME_BYTES,
  STREAM_UPGRADE,
  type OnFrame,
} from './stream-framing.ts';
