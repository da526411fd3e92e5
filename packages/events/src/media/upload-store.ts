import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { planSizes } from './image-sizes.ts';

/** The image formats WordPress's REST API accepts as featured images, by sharp's format name. */
export const IMAGE_FORMATS = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg', exts: ['jpg', 'jpeg', 'jpe'] },
  png: { mime: 'image/png', ext: 'png', exts: ['png'] },
  gif: { mime: 'image/gif', ext: 'gif', exts: ['gif'] },
  webp: { mime: 'image/webp', ext: 'webp', exts: ['webp'] },
} as const;
type Format = keyof typeof IMAGE_FORMATS;

export const MIME_BY_EXT: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(IMAGE_FORMATS).flatMap((f) => f.exts.map((e) => [e, f.mime])),
);

// A small file can declare huge dimensions (a decompression bomb): 50 megapixels covers camera photos and bounds
// the memory one decode takes to about 200 MB.
export const MAX_PIXELS = 50_000_000;

/** Not an image we take (unreadable, another format such as SVG or TIFF, or over MAX_PIXELS). */
export class NotAnImageError extends Error {}

export interface SizeFile {
  file: string;
  width: number;
  height: number;
  mime_type: string;
  filesize: number;
}
export interface StoredImage {
  /** `YYYY/MM/name.ext` under the uploads folder. */
  file: string;
  mime_type: string;
  width: number;
  height: number;
  filesize: number;
  /** Generated sizes by WordPress size name; `file` is the bare name beside the original. */
  sizes: Record<string, SizeFile>;
}

/** The type from the bytes themselves (never from a name or a header), with the pixel dimensions. */
export async function sniffImage(bytes: Buffer): Promise<{ format: Format; width: number; height: number }> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw new NotAnImageError('not an image');
  }
  const format = meta.format as string;
  if (!(format in IMAGE_FORMATS) || !meta.width || !meta.height)
    throw new NotAnImageError(`not an accepted image type: ${format}`);
  if (meta.width * meta.height > MAX_PIXELS) throw new NotAnImageError(`the image has more than ${MAX_PIXELS} pixels`);
  // An animated GIF or WebP reports the height of all frames stacked; WordPress shows one frame's.
  return { format: format as Format, width: meta.width, height: meta.pageHeight ?? meta.height };
}

/** WordPress's sanitize_file_name, narrowed to what our serving route accepts: letters, digits, `.`, `_`, `-`. */
export function fileStem(name: string): { stem: string; ext: string } {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const stem = (dot > 0 ? base.slice(0, dot) : base)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, '-')
    .replace(/[^A-Za-z0-9._-]/g, '')
    .replace(/[-.]{2,}/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');
  return { stem: stem.slice(0, 100) || 'image', ext };
}

const encode = (img: Sharp, format: Format): Sharp => {
  switch (format) {
    case 'jpeg':
      return img.jpeg({ quality: 82 });
    case 'webp':
      return img.webp({ quality: 82 });
    case 'png':
      return img.png();
    case 'gif':
      return img.gif();
  }
};

/**
 * Writes an image and its WordPress sizes under `dir/YYYY/MM/` with a free name (`name.ext`, `name-1.ext`, …).
 * Every file is written under a temporary name first and renamed into place, so a name never shows a partial file.
 * `remove` deletes the files again, for a write whose transaction did not commit. A crash between the renames and
 * the commit leaves files that no row names (README, media).
 */
export async function storeImage(
  dir: string,
  bytes: Buffer,
  originalName: string,
  now: number,
): Promise<{ image: StoredImage; remove(): Promise<void> }> {
  const { format, width, height } = await sniffImage(bytes);
  const spec = IMAGE_FORMATS[format];
  const named = fileStem(originalName);
  const ext = (spec.exts as readonly string[]).includes(named.ext) ? named.ext : spec.ext;
  const d = new Date(now);
  const month = `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
  const folder = join(dir, month);
  await mkdir(folder, { recursive: true });
  const temps: string[] = [];
  const finals: string[] = [];
  const cleanup = async (paths: string[]) => {
    await Promise.all(paths.map((p) => unlink(p).catch(() => undefined)));
  };
  try {
    const tempOf = async (data: Buffer) => {
      const p = join(folder, `.tmp-${randomBytes(8).toString('hex')}`);
      temps.push(p);
      await writeFile(p, data);
      return p;
    };
    const mainTemp = await tempOf(bytes);
    const rendered: Array<{ name: string; width: number; height: number; data: Buffer; temp: string }> = [];
    for (const s of planSizes(width, height)) {
      const data = await encode(
        sharp(bytes, { limitInputPixels: MAX_PIXELS }).resize(s.width, s.height, { fit: s.crop ? 'cover' : 'fill' }),
        format,
      ).toBuffer();
      rendered.push({ ...s, data, temp: await tempOf(data) });
    }
    // Claims the first free name by creating it exclusively; its size names must be free as well.
    let stem = named.stem;
    for (let n = 1; ; n++) {
      const sizesFree = rendered.every((s) => !existsSync(join(folder, `${stem}-${s.width}x${s.height}.${ext}`)));
      if (sizesFree) {
        try {
          await (await open(join(folder, `${stem}.${ext}`), 'wx')).close();
          finals.push(join(folder, `${stem}.${ext}`));
          break;
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
      }
      stem = `${named.stem}-${n}`;
    }
    const sizes: Record<string, SizeFile> = {};
    for (const s of rendered) {
      const file = `${stem}-${s.width}x${s.height}.${ext}`;
      await rename(s.temp, join(folder, file));
      finals.push(join(folder, file));
      sizes[s.name] = { file, width: s.width, height: s.height, mime_type: spec.mime, filesize: s.data.length };
    }
    await rename(mainTemp, join(folder, `${stem}.${ext}`));
    return {
      image: { file: `${month}/${stem}.${ext}`, mime_type: spec.mime, width, height, filesize: bytes.length, sizes },
      remove: () => cleanup(finals),
    };
  } catch (err) {
    await cleanup([...temps, ...finals]);
    throw err;
  }
}
