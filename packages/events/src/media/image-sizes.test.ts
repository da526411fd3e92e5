import { describe, expect, it } from 'vitest';
import { constrain, planSizes } from './image-sizes.ts';

describe('planSizes', () => {
  it('makes every default size of a large landscape image, cropping only the thumbnail', () => {
    expect(planSizes(2000, 1000).map((s) => [s.name, s.width, s.height])).toEqual([
      ['thumbnail', 150, 150],
      ['medium', 300, 150],
      ['medium_large', 768, 384],
      ['large', 1024, 512],
    ]);
  });
  it('skips sizes not smaller than the original, as WordPress never upscales', () => {
    expect(planSizes(400, 300).map((s) => s.name)).toEqual(['thumbnail', 'medium']);
    expect(planSizes(120, 100)).toEqual([]);
  });
  it('crops the thumbnail to the original side when one side is already short', () => {
    expect(planSizes(400, 100)[0]).toMatchObject({ name: 'thumbnail', width: 150, height: 100 });
  });
  it('fits portraits by height', () => {
    expect(constrain(1000, 2000, 300, 300)).toEqual([150, 300]);
    expect(constrain(1000, 2000, 768, 0)).toEqual([768, 1536]);
  });
});
