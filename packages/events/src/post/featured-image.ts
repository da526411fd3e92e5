import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import type { Caller } from '../http/route.ts';

/**
 * A featured image chosen by a write, resolved before its transaction: any download and image processing are done
 * (files already in place), so the transaction only links (and, for an import, inserts) the attachment row.
 */
export interface PreparedImage {
  /** Inside the write's transaction: the attachment id to store, or null for "no image". */
  commit(trx: Kysely<Database>): Promise<number | null>;
  /** After a transaction that did not commit: removes files written for it. */
  discard(): Promise<void>;
}

/** What venues, organizers and events need of the media library (implemented in `src/media`). */
export interface ImageLibrary {
  /** Resolves an `image` write value (empty, attachment id or URL); a URL that cannot be used throws a 400 on `image`. */
  prepare(value: unknown, caller: Caller, now: number): Promise<PreparedImage>;
  /** The §1.2 image bodies of these attachments, in one query. */
  bodies(ids: readonly number[]): Promise<ReadonlyMap<number, Record<string, unknown>>>;
}

/** Runs a write that uses prepared images; if it fails, their files are removed so nothing is left behind. */
export async function withImages<T>(images: readonly PreparedImage[], write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    await Promise.all(images.map((i) => i.discard()));
    throw err;
  }
}
