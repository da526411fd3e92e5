export * from './messages.ts';
export { assertNever } from './assert-never.ts';
export { decodeEnvelope, encodeEnvelope, ProtocolError } from './decode.ts';
export * from './v2-messages.ts';
export { decodeReply, encodeReply, SPLIT_REPLY_TYPE } from './reply-framing.ts';
