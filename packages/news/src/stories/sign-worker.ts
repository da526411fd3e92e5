import { parentPort } from 'node:worker_threads';
import { createSignScratch, signText, SIGNATURE_SLOTS } from './signature.ts';

/** A batch of texts to sign: their UTF-8 bytes end to end, and where each ends. */
export interface SignBatch {
  readonly id: number;
  readonly bytes: Uint8Array;
  readonly ends: Uint32Array;
}

/** The signatures of a batch, SIGNATURE_SLOTS per text, and which texts had words. */
export interface SignedBatch {
  readonly id: number;
  readonly signatures: Uint16Array;
  readonly signed: Uint8Array;
}

const scratch = createSignScratch();
parentPort?.on('message', ({ id, bytes, ends }: SignBatch) => {
  const signatures = new Uint16Array(ends.length * SIGNATURE_SLOTS);
  const signed = new Uint8Array(ends.length);
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const end = ends[i] as number;
    signed[i] = signText(bytes.subarray(start, end), signatures, i * SIGNATURE_SLOTS, scratch) ? 1 : 0;
    start = end;
  }
  parentPort?.postMessage({ id, signatures, signed } satisfies SignedBatch, [
    signatures.buffer as ArrayBuffer,
    signed.buffer as ArrayBuffer,
  ]);
});
