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
    fc.assert(fc.property(fc.array(frameArb, { maxLength: 20 }), fc.array(fc.nat({ max: 64 }), { maxLength: 40 }), (frames, cuts) => {
      const bytes = Buffer.concat(frames.map((f) => encodeFrame(f.id, f.type, f.payload)));
      const reader = new FrameReader();
      const got: { id: number; type: number; payload: string }[] = [];
      let at = 0;
      for (const c of cuts) {
        if (at >= bytes.length) break;
        for (const f of reader.push(bytes.subarray(at, at + c))) got.push({ id: f.id, type: f.type, payload: f.payload.toString('utf8') });
        at += c;
      }
      for (const f of reader.push(bytes.subarray(at))) got.push({ id: f.id, type: f.type, payload: f.payload.toString('utf8') });
      expect(got).toEqual(frames);
    }));
  });

  it('accepts a frame exactly at the limit and refuses one byte over it', () => {
    const limit = 10;
    expect(new FrameReader(limit).push(encodeFrame(1, FrameType.request, 'x'.repeat(limit)))[0]?.payload.length).toBe(limit);
    expect(() => new FrameReader(limit).push(encodeFrame(1, FrameType.request, 'x'.repeat(limit + 1)))).toThrow(FrameTooLarge);
  });

  it('refuses a frame that claims no type byte', () => {
    expect(() => new FrameReader().push(Buffer.alloc(9))).toThrow(FrameTooLarge);
  });
});
