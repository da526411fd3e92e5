/** An intermediate size as WordPress registers it: a bounding box (0 = unbounded), cropped or fitted inside. */
export interface SizeRule {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly crop: boolean;
}

/** WordPress's default sizes, in the order it makes them (options `thumbnail_size_w` … `large_size_h`). */
export const SIZE_RULES: readonly SizeRule[] = [
  { name: 'thumbnail', width: 150, height: 150, crop: true },
  { name: 'medium', width: 300, height: 300, crop: false },
  { name: 'medium_large', width: 768, height: 0, crop: false },
  { name: 'large', width: 1024, height: 1024, crop: false },
];

export interface PlannedSize {
  readonly name: string;
  readonly width: number;
  readonly height: number;
  readonly crop: boolean;
}

/** WordPress's wp_constrain_dimensions: the largest size inside the box that keeps the aspect ratio. */
export function constrain(w: number, h: number, maxW: number, maxH: number): [number, number] {
  const wr = maxW > 0 && w > maxW ? maxW / w : 1;
  const hr = maxH > 0 && h > maxH ? maxH / h : 1;
  const smaller = Math.min(wr, hr);
  const larger = Math.max(wr, hr);
  const over = (maxW > 0 && Math.round(w * larger) > maxW) || (maxH > 0 && Math.round(h * larger) > maxH);
  const ratio = over ? smaller : larger;
  return [Math.max(1, Math.round(w * ratio)), Math.max(1, Math.round(h * ratio))];
}

/**
 * The sizes WordPress would make of a `width`×`height` original (image_resize_dimensions): a size that would not be
 * smaller than the original in either direction is skipped, as WordPress never upscales.
 * @example planSizes(400, 300) // thumbnail 150×150, medium 300×225
 */
export function planSizes(width: number, height: number, rules: readonly SizeRule[] = SIZE_RULES): PlannedSize[] {
  const out: PlannedSize[] = [];
  for (const r of rules) {
    const [w, h] = r.crop
      ? [Math.min(r.width || width, width), Math.min(r.height || height, height)]
      : constrain(width, height, r.width, r.height);
    if (w >= width && h >= height) continue;
    out.push({ name: r.name, width: w, height: h, crop: r.crop });
  }
  return out;
}
