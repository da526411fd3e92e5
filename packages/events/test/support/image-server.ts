import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/** Images made with sharp for the media tests: real bytes of each accepted format and of things that are not. */
export async function makeImages() {
  const solid = (width: number, height: number) =>
    sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
  return {
    photo: await solid(1200, 800).jpeg({ quality: 90 }).toBuffer(),
    other: await solid(640, 480).png().toBuffer(),
    small: await solid(100, 80).webp().toBuffer(),
    gif: await solid(200, 100).gif().toBuffer(),
    // Noise does not compress: a real PNG well over the 100 kB cap the tests set.
    big: await sharp({
      create: {
        width: 400,
        height: 400,
        channels: 3,
        background: '#000',
        noise: { type: 'gaussian', mean: 128, sigma: 60 },
      },
    })
      .png()
      .toBuffer(),
    svg: Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
    ),
  };
}
export type TestImages = Awaited<ReturnType<typeof makeImages>>;

/** A local image host on 127.0.0.1 that counts requests, as a remote site would serve images to import. */
export async function startImageServer(
  images: TestImages,
): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const routes: Record<string, { type: string; body: Buffer } | { redirect: string }> = {
    '/photo.jpg': { type: 'image/jpeg', body: images.photo },
    '/other.png': { type: 'image/png', body: images.other },
    '/small.webp': { type: 'image/webp', body: images.small },
    '/anim.gif': { type: 'image/gif', body: images.gif },
    '/big.png': { type: 'image/png', body: images.big },
    '/drawing.svg': { type: 'image/svg+xml', body: images.svg },
    '/notes.txt': { type: 'text/plain', body: Buffer.from('not an image') },
    // Claims to be a JPEG; the bytes say otherwise.
    '/fake.jpg': { type: 'image/jpeg', body: Buffer.from('<html>not a jpeg</html>') },
    '/moved': { redirect: '/other.png' },
    '/loop': { redirect: '/loop' },
  };
  const server: Server = createServer((req, res) => {
    hits++;
    const route = routes[(req.url ?? '').split('?')[0]!];
    if (!route) return res.writeHead(404).end();
    if ('redirect' in route) return res.writeHead(302, { location: route.redirect }).end();
    res.writeHead(200, { 'content-type': route.type, 'content-length': route.body.length }).end(route.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
