import { readFile, stat } from 'node:fs/promises';
import type { Kysely } from 'kysely';
import type { Config } from '../config/index.ts';
import type { Database } from '../db/index.ts';
import type { Caller } from '../http/route.ts';
import { invalidParam } from '../http/errors.ts';
import { isIdText, toRowId } from '../http/row-id.ts';
import {
  modifiedNow,
  postDates,
  postRepository,
  sanitizeTitle,
  writeTransaction,
  type ImageLibrary,
  type PreparedImage,
  type Site,
} from '../post/index.ts';
import { mediaRepository } from './media.repository.ts';
import { formatImage, uploadUrl } from './media.format.ts';
import { defaultSafeFetchOptions, FetchError, safeFetch, type SafeFetchOptions } from './safe-fetch.ts';
import { NotAnImageError, storeImage, type StoredImage } from './upload-store.ts';

export interface MediaDeps {
  db: Kysely<Database>;
  site: Site;
  uploadsDir: string;
  fetch: SafeFetchOptions;
}

/** The media settings of a service config (the server and `events media add` use the same). */
export const mediaDepsFromConfig = (db: Kysely<Database>, site: Site, config: Config): MediaDeps => ({
  db,
  site,
  uploadsDir: config.uploadsDir,
  fetch: {
    ...defaultSafeFetchOptions,
    maxBytes: config.mediaMaxBytes,
    allowPrivateHosts: config.mediaAllowPrivateHosts,
  },
});

/** `""`, `0`, `"0"`, false and null all mean "no featured image". */
export const isNoImage = (v: unknown): boolean => v === '' || v === 0 || v === '0' || v === false || v === null;

/** An attachment id as sent (form fields are strings); undefined when the value is not one. */
export const imageId = (v: unknown): number | undefined =>
  typeof v === 'number'
    ? Number.isInteger(v) && v > 0
      ? toRowId(v)
      : undefined
    : typeof v === 'string' && isIdText(v.trim())
      ? toRowId(v)
      : undefined;

export const isHttpUrl = (v: unknown): v is string => {
  if (typeof v !== 'string' || !/^https?:\/\/\S+$/i.test(v)) return false;
  try {
    return new URL(v).hostname !== '';
  } catch {
    return false;
  }
};

const fixed = (id: number | null): PreparedImage => ({ commit: async () => id, discard: async () => undefined });

/** The media library: attachments in the store, files under the uploads folder. */
export function mediaService(deps: MediaDeps) {
  const { db, site } = deps;
  const repo = mediaRepository(db);
  const ownPrefix = uploadUrl(site.home, '');

  /** Writes the files now; the attachment row is inserted by `commit` inside the caller's transaction. */
  async function stage(
    bytes: Buffer,
    name: string,
    sourceUrl: string | null,
    caller: Caller,
    now: number,
  ): Promise<PreparedImage> {
    const stored = await storeImage(deps.uploadsDir, bytes, name, now);
    return {
      commit: (trx) => insertAttachment(trx, stored.image, sourceUrl, caller, now),
      discard: stored.remove,
    };
  }

  async function insertAttachment(
    trx: Kysely<Database>,
    image: StoredImage,
    sourceUrl: string | null,
    caller: Caller,
    now: number,
  ): Promise<number> {
    const posts = postRepository(trx);
    const title = image.file.slice(image.file.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
    const id = await posts.insert({
      type: 'attachment',
      slug: await posts.freeSlug('attachment', sanitizeTitle(title) || 'image'),
      title,
      content: '',
      excerpt: '',
      status: 'inherit',
      author: caller.id,
      password: '',
      menu_order: 0,
      ...postDates(site.timezone, now),
      ...modifiedNow(site.timezone, now),
    });
    await mediaRepository(trx).insert({
      post_id: id,
      file: image.file,
      mime_type: image.mime_type,
      width: image.width,
      height: image.height,
      filesize: image.filesize,
      source_url: sourceUrl,
      sizes: JSON.stringify(image.sizes),
    });
    return id;
  }

  /** A URL: one of our own uploads, one imported before, or downloaded now. Refusals throw FetchError/NotAnImageError. */
  async function fromUrl(url: string, caller: Caller, now: number): Promise<PreparedImage> {
    if (url.startsWith(ownPrefix)) {
      const own = await repo.findByFile(decodeURIComponent(url.slice(ownPrefix.length).split(/[?#]/)[0]!));
      if (!own) throw new FetchError('no attachment has this uploads URL');
      return fixed(own.post_id);
    }
    const before = await repo.findBySource(url);
    if (before) return fixed(before.post_id);
    const bytes = await safeFetch(url, deps.fetch);
    return stage(bytes, decodeURIComponent(new URL(url).pathname), url, caller, now);
  }

  const prepare: ImageLibrary['prepare'] = async (value, caller, now) => {
    if (isNoImage(value)) return fixed(null);
    const id = imageId(value);
    if (id !== undefined) return fixed(id);
    try {
      return await fromUrl(String(value), caller, now);
    } catch (err) {
      // The plugin's validator answers every unusable URL the same way: a 400 on `image`.
      if (err instanceof FetchError || err instanceof NotAnImageError) throw invalidParam('image');
      throw err;
    }
  };
  const bodies: ImageLibrary['bodies'] = async (ids) => {
    const rows = await repo.findMany(ids);
    return new Map([...rows].map(([id, a]) => [id, formatImage(site.home, a)]));
  };
  return {
    prepare,
    bodies,
    /** True when the id is an attachment (every attachment here is an image). */
    isImage: async (id: number) => (await repo.findById(id)) !== undefined,
    /**
     * Imports a local file or a URL for the operator (`events media add`): same checks and sizes as an API import.
     * @example const { id, url } = await media.importSource('./poster.jpg', operator, Date.now())
     */
    async importSource(source: string, caller: Caller, now: number): Promise<{ id: number; url: string }> {
      let prepared: PreparedImage;
      if (isHttpUrl(source)) prepared = await fromUrl(source, caller, now);
      else {
        if ((await stat(source)).size > deps.fetch.maxBytes)
          throw new NotAnImageError('the file is larger than EVENTS_MEDIA_MAX_BYTES');
        prepared = await stage(await readFile(source), source, null, caller, now);
      }
      const id = await writeTransaction(db, async (trx) => (await prepared.commit(trx))!).catch(
        async (err: unknown) => {
          await prepared.discard();
          throw err;
        },
      );
      return { id, url: uploadUrl(site.home, (await repo.findById(id))!.file) };
    },
  };
}

export type MediaService = ReturnType<typeof mediaService>;
