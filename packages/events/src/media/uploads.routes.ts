import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MIME_BY_EXT } from './upload-store.ts';

/** Where WordPress serves uploads, under the site's home. */
export const UPLOADS_PATH = '/wp-content/uploads';

// Only names this service writes: `YYYY/MM/name.ext` of safe characters. Anything else (`..`, hidden temporary
// files, other folders) never reaches the file system.
const SERVABLE = /^\d{4}\/\d{2}\/[A-Za-z0-9][A-Za-z0-9._-]*\.([a-z]+)$/;

/**
 * GET/HEAD `{home}/wp-content/uploads/YYYY/MM/name.ext` from the uploads folder with the image's Content-Type;
 * 404 for anything else.
 */
export function serveUploads(dir: string) {
  const root = resolve(dir);
  return async (req: FastifyRequest, reply: FastifyReply) => {
    const rel = (req.params as Record<string, string>)['*'] ?? '';
    const match = SERVABLE.exec(rel);
    const mime = match ? MIME_BY_EXT[match[1]!] : undefined;
    const path = join(root, rel);
    const info = mime && path.startsWith(root + sep) ? await stat(path).catch(() => undefined) : undefined;
    if (!info?.isFile()) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    reply.code(200).headers({ 'Content-Type': mime!, 'Content-Length': info.size, 'X-Content-Type-Options': 'nosniff',
      'Last-Modified': info.mtime.toUTCString(), 'Cache-Control': 'public, max-age=31536000' });
    return req.method === 'HEAD' ? reply.send() : reply.send(createReadStream(path));
  };
}
