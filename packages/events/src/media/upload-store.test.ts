import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStem, NotAnImageError, storeImage } from './upload-store.ts';

const JAN_2018 = Date.UTC(2018, 0, 10);

describe('fileStem', () => {
  it.each([
    ['/images/My Photo.JPG', 'My-Photo', 'jpg'],
    ['../../etc/passwd', 'passwd', ''],
    ['.hidden.png', 'hidden', 'png'],
    ['/a/Café crème.webp', 'Cafe-creme', 'webp'],
    ['/', 'image', ''],
    ['/x/..png', 'image', 'png'],
  ])('%s → %s . %s', (name, stem, ext) => {
    expect(fileStem(name)).toEqual({ stem, ext });
  });
});

describe('storeImage', () => {
  const dir = mkdtempSync(join(tmpdir(), 'events-store-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const files = () => readdirSync(join(dir, '2018', '01')).sort();

  it('writes the original and its sizes under YYYY/MM, takes a free name, and removes them again', async () => {
    const png = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#369' } })
      .png()
      .toBuffer();
    const first = await storeImage(dir, png, '/shots/poster.jpeg', JAN_2018);
    // The bytes say PNG, so the name gets the PNG extension whatever the URL said.
    expect(first.image).toMatchObject({
      file: '2018/01/poster.png',
      mime_type: 'image/png',
      width: 400,
      height: 300,
      filesize: png.length,
    });
    expect(first.image.sizes).toEqual({
      thumbnail: {
        file: 'poster-150x150.png',
        width: 150,
        height: 150,
        mime_type: 'image/png',
        filesize: expect.any(Number),
      },
      medium: {
        file: 'poster-300x225.png',
        width: 300,
        height: 225,
        mime_type: 'image/png',
        filesize: expect.any(Number),
      },
    });
    const second = await storeImage(dir, png, 'poster.png', JAN_2018);
    expect(second.image.file).toBe('2018/01/poster-1.png');
    expect(files()).toEqual([
      'poster-1-150x150.png',
      'poster-1-300x225.png',
      'poster-1.png',
      'poster-150x150.png',
      'poster-300x225.png',
      'poster.png',
    ]);
    await second.remove();
    await first.remove();
    expect(files()).toEqual([]);
  });

  it('refuses bytes that are not a JPEG, PNG, GIF or WebP and leaves no temporary file', async () => {
    const tiff = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .tiff()
      .toBuffer();
    await expect(storeImage(dir, tiff, 'a.tif', JAN_2018)).rejects.toThrow(NotAnImageError);
    await expect(storeImage(dir, Buffer.from('GIF89a but not really'), 'a.gif', JAN_2018)).rejects.toThrow(
      NotAnImageError,
    );
    expect(files()).toEqual([]);
  });
});
