import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame, FrameReader, FrameTooLarge, FrameType } from './stream-framing.ts';

const frameArb = fc.record({
  id: fc.nat({ max: 0xffffffff }),
  type: fc.constantFrom(...Object.values(FrameType)),
  payload: fc.string({ unit: 'grapheme', maxLength: 200 }),
});

describe('stream framing', () => {
  it('reads back every frame, in order, however the byte stream is cut into chunks', () => {
    fc.assert(
      fc.property(
        fc.array(frameArb, { maxLength: 20 }),
        fc.array(fc.nat({ max: 64 }), { maxLength: 40 }),
        (frames, cuts) => {
          const bytes = Buffer.concat(frames.map((f) => encodeFrame(f.id, f.type, f.payload)));
          const reader = new FrameReader();
          const got: { id: number; type: number; payload: string }[] = [];
          const keep = (id: number, type: number, payload: Buffer) => {
            got.push({ id, type, payload: payload.toString('utf8') });
          };
          // Every chunk is cut from one reused buffer, overwritten after each push, as a socket's onread buffer is.
          const shared = Buffer.alloc(bytes.length);
          const feed = (from: number, to: number) => {
            bytes.copy(shared, 0, from, to);
            reader.push(shared.subarray(0, to - from), keep);
            shared.fill(0xff);
          };
          let at = 0;
          for (const c of cuts) {
            if (at >= bytes.length) break;
            feed(at, Math.min(at + c, bytes.length));
            at += c;
          }
          if (at < bytes.length) feed(at, bytes.length);
          expect(got).toEqual(frames);
        },
      ),
    );
  });

  it('accepts a frame exactly at the limit and refuses one byte over it', () => {
    const limit = 10;
    const lengths: number[] = [];
    new FrameReader(limit).push(encodeFrame(1, FrameType.request, 'x'.repeat(limit)), (_id, _type, payload) =>
      lengths.push(payload.length),
    );
    expect(lengths).toEqual([limit]);
    expect(() =>
      new FrameReader(limit).push(encodeFrame(1, FrameType.request, 'x'.repeat(limit + 1)), () => {}),
    ).toThrow(FrameTooLarge);
  });

  it('refuses a frame that claims no type byte', () => {
    expect(() => new FrameReader().push(Buffer.alloc(9), () => {})).toThrow(FrameTooLarge);
  });
});
