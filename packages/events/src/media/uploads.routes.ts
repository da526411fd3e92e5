import { constants, type Stats } from 'node:fs';
import { lstat, open, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MIME_BY_EXT } from './upload-store.ts';

/** Where WordPress serves uploads, under the site's home. */
export const UPLOADS_PATH = '/wp-content/uploads';

// Only names this service writes: `YYYY/MM/name.ext` of safe characters. Anything else (`..`, hidden temporary
// files, other folders) never reaches the file system.
const SERVABLE = /^\d{4}\/\d{2}\/[A-Za-z0-9][A-Za-z0-9._-]*\.([a-z]+)$/;

/**
 * Opens `root/rel` only when it is a regular file reached through real folders: a symbolic link anywhere below the
 * uploads folder (to a file outside or inside it, or a linked `YYYY`/`MM` folder) is not followed. The folders are
 * checked with lstat and the file is opened with O_NOFOLLOW and checked on the open descriptor, so a link swapped in
 * for the file after the check is refused too.
 */
async function openRegularFile(root: string, rel: string): Promise<{ handle: FileHandle; info: Stats } | undefined> {
  const parts = rel.split('/');
  let folder = root;
  for (const part of parts.slice(0, -1)) {
    folder = join(folder, part);
    if (!(await lstat(folder).catch(() => undefined))?.isDirectory()) return undefined;
  }
  const handle = await open(join(folder, parts[parts.length - 1]!), constants.O_RDONLY | constants.O_NOFOLLOW).catch(
    () => undefined,
  );
  if (!handle) return undefined;
  const info = await handle.stat();
  if (info.isFile()) return { handle, info };
  await handle.close();
  return undefined;
}

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
    const file = mime ? await openRegularFile(root, rel) : undefined;
    if (!file) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    const { handle, info } = file;
    reply.code(200).headers({
      'Content-Type': mime!,
      'Content-Length': info.size,
      'X-Content-Type-Options': 'nosniff',
      'Last-Modified': info.mtime.toUTCString(),
      'Cache-Control': 'public, max-age=31536000',
    });
    if (req.method === 'HEAD') {
      await handle.close();
      return reply.send();
    }
    return reply.send(handle.createReadStream());
  };
}
