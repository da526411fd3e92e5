import { describe, expect, it } from 'vitest';
import { ValidatorMemo } from './validator-memo.ts';

/** A generation that counts how often it is read (on SQLite each read is a `pragma data_version` query). */
function countingGeneration() {
  let value = 0;
  const g = {
    reads: 0,
    bump: () => {
      value++;
    },
    get value() {
      g.reads++;
      return value;
    },
  };
  return g;
}
const answer = (etag: string) => ({ ETag: etag, 'Content-Type': 'application/json; charset=UTF-8', Vary: 'Origin' });

describe('ValidatorMemo', () => {
  it('answers a matching re-poll in the same generation with the 304 headers, and nothing after a write', () => {
    const gen = countingGeneration();
    const memo = new ValidatorMemo(gen, 5000, () => 1000);
    memo.remember('0||/e/1', 0, answer('"a"'));
    expect(memo.notModified('0||/e/1', { 'if-none-match': '"a"' })).toEqual({ ETag: '"a"', Vary: 'Origin' });
    expect(memo.notModified('0||/e/1', { 'if-none-match': '"b"' })).toBeUndefined();
    expect(memo.notModified('7||/e/1', { 'if-none-match': '"a"' })).toBeUndefined();
    gen.bump();
    expect(memo.notModified('0||/e/1', { 'if-none-match': '"a"' })).toBeUndefined();
  });

  it('does not read the generation to remember, and never matches an answer built before a write', () => {
    const gen = countingGeneration();
    const memo = new ValidatorMemo(gen, 5000, () => 1000);
    gen.bump();
    const reads = gen.reads;
    memo.remember('0||/e/1', 0, answer('"stale"'));
    expect(gen.reads).toBe(reads);
    expect(memo.notModified('0||/e/1', { 'if-none-match': '"stale"' })).toBeUndefined();
  });

  it("keeps a newer generation's answer when a slower build from an older one finishes", () => {
    const gen = countingGeneration();
    const memo = new ValidatorMemo(gen, 5000, () => 1000);
    gen.bump();
    memo.remember('0||/e/1', 1, answer('"new"'));
    memo.remember('0||/e/1', 0, answer('"old"'));
    expect(memo.notModified('0||/e/1', { 'if-none-match': '"new"' })).toBeDefined();
  });

  it('forgets after the TTL, and remembers nothing with a TTL of 0 or without a request validator', () => {
    let now = 1000;
    const gen = countingGeneration();
    const memo = new ValidatorMemo(gen, 5000, () => now);
    memo.remember('k', 0, answer('"a"'));
    expect(memo.notModified('k', {})).toBeUndefined();
    now += 5000;
    expect(memo.notModified('k', { 'if-none-match': '"a"' })).toBeUndefined();
    const off = new ValidatorMemo(gen, 0, () => now);
    off.remember('k', 0, answer('"a"'));
    expect(off.notModified('k', { 'if-none-match': '"a"' })).toBeUndefined();
  });

  it('stays bounded under many URLs: the latest answers are kept, the earliest forgotten', () => {
    const memo = new ValidatorMemo(countingGeneration(), 5000, () => 1000);
    for (let i = 0; i < 20_000; i++) memo.remember(`0||/e/${i}`, 0, answer(`"${i}"`));
    expect(memo.notModified('0||/e/19999', { 'if-none-match': '"19999"' })).toBeDefined();
    expect(memo.notModified('0||/e/17600', { 'if-none-match': '"17600"' })).toBeDefined();
    expect(memo.notModified('0||/e/0', { 'if-none-match': '"0"' })).toBeUndefined();
    expect(memo.notModified('0||/e/9999', { 'if-none-match': '"9999"' })).toBeUndefined();
  });

  it('a changed answer in the same generation (the clock moved a default window) replaces the remembered tag', () => {
    const memo = new ValidatorMemo(countingGeneration(), 5000, () => 1000);
    memo.remember('k', 0, answer('"monday"'));
    memo.remember('k', 0, answer('"tuesday"'));
    expect(memo.notModified('k', { 'if-none-match': '"monday"' })).toBeUndefined();
    expect(memo.notModified('k', { 'if-none-match': '"tuesday"' })).toBeDefined();
  });
});
