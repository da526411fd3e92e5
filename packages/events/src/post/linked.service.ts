import type { Kysely } from 'kysely';
import type { TSchema } from '@sinclair/typebox';
import { lockKey, type Database } from '../db/index.ts';
import type { Caller } from '../http/route.ts';
import type { Validator } from '../http/args.ts';
import { linkedRepository, type LinkedListFilter, type LinkedRow, type LinkedTable } from './linked.repository.ts';
import { postRepository } from './post.repository.ts';
import { querySlug, sanitizeTitle, trashedSlug, untrashedSlug } from './slug.ts';
import { canRead, scaleStatus } from './status.ts';
import { writeFilters, type WriteFilters } from './kses.ts';
import { insertedPostTimes, modifiedNow, updatedPostDates } from './dates.ts';
import { writeTransaction, type WriteGeneration } from './write.ts';
import type { Site } from './site.ts';
import { withImages, type ImageLibrary, type PreparedImage } from './featured-image.ts';

export type Params = Record<string, unknown>;

/** What distinguishes venues from organizers; everything else is shared. */
export interface LinkedKind extends LinkedTable {
  readonly kind: 'venue' | 'organizer';
  readonly route: 'venues' | 'organizers';
  readonly nameField: 'venue' | 'organizer';
  readonly label: string;
  /** Write fields besides name, author, date, date_utc, description, status and image. */
  readonly writeArgs: Record<string, TSchema>;
  /** The write fields that are text (kses-filtered for users without `unfiltered_html`). */
  readonly textFields: readonly string[];
  readonly writeValidators: Record<string, Validator>;
  /** Write arguments the plugin declares with a `null` default (printed by the index only). */
  readonly declaredNullDefaults: readonly string[];
  /** Detail-column values from the sent params (all columns on create, the changed ones on update). */
  detailsFrom(params: Params, sent: ReadonlySet<string>, existing: LinkedRow | undefined): Record<string, unknown>;
  /**
   * `image` is the featured image body (§1.2) when the row has one. `jsonLd`: the plugin adds `json_ld` to GET answers
   * of one item only (not to lists, nor to create, update and delete answers).
   */
  format(site: Site, row: LinkedRow, jsonLd: boolean, image?: Record<string, unknown>): Record<string, unknown>;
}

/** Create (with the plugin's de-duplication), update and trash for venues and organizers. */
export function linkedService(
  db: Kysely<Database>,
  kind: LinkedKind,
  site: Site,
  generation: WriteGeneration,
  images: ImageLibrary,
) {
  const repo = linkedRepository(db, kind);
  const thumbnailIds = (rows: Iterable<LinkedRow>) =>
    [...rows].map((r) => r.thumbnail_id).filter((id): id is number => typeof id === 'number');

  /** The sent params with kses applied as WordPress saves them: name and fields as text, description as post content. */
  function filtered(p: Params, kses: WriteFilters): Params {
    const out: Params = { ...p };
    for (const f of [kind.nameField, ...kind.textFields]) if (typeof p[f] === 'string') out[f] = kses.data(p[f]);
    if (typeof p.description === 'string') out.description = kses.post(p.description);
    if (typeof p.website === 'string') out.website = kses.url(p.website);
    return out;
  }

  /** Writes one venue or organizer; `image` is its sent featured image, prepared before the transaction. */
  async function writeIn(
    trx: Kysely<Database>,
    caller: Caller,
    sentParams: Params,
    sent: ReadonlySet<string>,
    now: number,
    opts: { targetId?: number; image?: PreparedImage; dedupe?: false } = {},
  ): Promise<number> {
    const { targetId } = opts;
    const r = linkedRepository(trx, kind);
    const posts = postRepository(trx);
    const p = filtered(sentParams, writeFilters(caller));
    const description = typeof p.description === 'string' ? p.description : undefined;
    let existing = targetId === undefined ? undefined : await r.findById(targetId);
    if (!existing && targetId === undefined && opts.dedupe !== false) {
      // Same-name creates are serialised so the plugin's de-duplication also holds under concurrency.
      await lockKey(trx, `linked:${kind.type}:${String(p[kind.nameField]).toLowerCase()}`);
      existing = await r.findDuplicate(String(p[kind.nameField]), sent.has('description') ? description : undefined);
      // A draft or private duplicate the caller cannot read is not reused: that would link (and change) it behind
      // its owner's back, as linking its id directly is refused (event.args.ts).
      if (existing && !canRead(caller, existing)) existing = undefined;
    }
    if (existing && targetId === undefined) {
      // The plugin's de-duplication leaves the found post as it is (dates, name, status) and rewrites only the details
      // sent with the duplicate, as an update of the details would.
      const details = kind.detailsFrom(p, sent, existing);
      if (opts.image) details.thumbnail_id = await opts.image.commit(trx);
      await r.updateDetails(existing.id, details);
      return existing.id;
    }
    if (existing) {
      const patch: Record<string, unknown> = { ...modifiedNow(site.timezone, now) };
      if (sent.has(kind.nameField)) patch.title = p[kind.nameField];
      if (description !== undefined) patch.content = description;
      if (typeof p.excerpt === 'string') patch.excerpt = p.excerpt;
      if (typeof p.slug === 'string')
        patch.slug = await posts.freeSlug(kind.type, sanitizeTitle(p.slug) || kind.kind, existing.id);
      if (sent.has('status')) patch.status = scaleStatus(p.status as string, caller);
      if (existing.status === 'trash' && patch.status !== undefined && patch.status !== 'trash') {
        patch.slug = await posts.freeSlug(kind.type, untrashedSlug(existing.slug), existing.id);
      }
      if (sent.has('author')) patch.author = p.author;
      Object.assign(
        patch,
        updatedPostDates(
          site.timezone,
          now,
          existing,
          (patch.status as string | undefined) ?? existing.status,
          p.date as string | undefined,
          p.date_utc as string | undefined,
        ),
      );
      await posts.update(existing.id, patch);
      const details = kind.detailsFrom(p, sent, existing);
      if (opts.image) details.thumbnail_id = await opts.image.commit(trx);
      await r.updateDetails(existing.id, details);
      return existing.id;
    }
    const name = String(p[kind.nameField]);
    // `slug` is sent only through tec/v1 (tribe/events/v1 names the post after its title).
    const slug = await posts.freeSlug(
      kind.type,
      sanitizeTitle(typeof p.slug === 'string' && p.slug !== '' ? p.slug : name) || kind.kind,
    );
    const status = scaleStatus(p.status as string | undefined, caller);
    const id = await posts.insert({
      type: kind.type,
      slug,
      title: name,
      content: description ?? '',
      excerpt: typeof p.excerpt === 'string' ? p.excerpt : '',
      status,
      author: (p.author as number | undefined) ?? caller.id,
      password: '',
      menu_order: 0,
      ...insertedPostTimes(site.timezone, now, status, p.date as string | undefined, p.date_utc as string | undefined),
    });
    await r.insertDetails(id, {
      ...kind.detailsFrom(p, sent, undefined),
      thumbnail_id: opts.image ? await opts.image.commit(trx) : null,
    });
    return id;
  }

  /** Resolves a sent `image` (download and files included) before a write transaction. */
  const prepareImage = (
    p: Params,
    sent: ReadonlySet<string>,
    caller: Caller,
    now: number,
  ): Promise<PreparedImage | undefined> =>
    sent.has('image') ? images.prepare(p.image, caller, now) : Promise.resolve(undefined);

  return {
    kind,
    repo,
    get: (id: number) => repo.findById(id),
    /** Read as WordPress reads a URL slug (`sanitize_title_for_query`). */
    getBySlug: (slug: string) => repo.findBySlug(querySlug(slug)),
    many: (ids: readonly number[]) => repo.findMany(ids),
    /** The body of one venue or organizer, with its featured image. */
    async present(row: LinkedRow, jsonLd: boolean): Promise<Record<string, unknown>> {
      const image =
        typeof row.thumbnail_id === 'number'
          ? (await images.bodies([row.thumbnail_id])).get(row.thumbnail_id)
          : undefined;
      return kind.format(site, row, jsonLd, image);
    },
    /** List bodies; the featured images of the whole page load in one query. */
    async presentMany(rows: readonly LinkedRow[]): Promise<Record<string, unknown>[]> {
      const ids = thumbnailIds(rows);
      const bodies = ids.length > 0 ? await images.bodies(ids) : new Map<number, Record<string, unknown>>();
      return rows.map((r) =>
        kind.format(site, r, false, typeof r.thumbnail_id === 'number' ? bodies.get(r.thumbnail_id) : undefined),
      );
    },
    thumbnailIds,
    prepareImage,
    list: (f: LinkedListFilter) => repo.list(f),
    /** For inline creation inside an event write: same rules, the caller's transaction. */
    writeIn,
    /** `dedupe: false` (`tec/v1`): a new post even when one has the same name. */
    async create(
      caller: Caller,
      p: Params,
      sent: ReadonlySet<string>,
      now: number,
      opts: { dedupe?: false } = {},
    ): Promise<number> {
      const image = await prepareImage(p, sent, caller, now);
      const id = await withImages(image ? [image] : [], () =>
        writeTransaction(db, (trx) => writeIn(trx, caller, p, sent, now, { image, ...opts })),
      );
      generation.bump();
      return id;
    },
    async update(caller: Caller, id: number, p: Params, sent: ReadonlySet<string>, now: number): Promise<void> {
      const image = await prepareImage(p, sent, caller, now);
      await withImages(image ? [image] : [], () =>
        writeTransaction(db, (trx) => writeIn(trx, caller, p, sent, now, { targetId: id, image })),
      );
      generation.bump();
    },
    async trash(row: LinkedRow, now: number): Promise<void> {
      await writeTransaction(db, async (trx) => {
        const posts = postRepository(trx);
        const slug = await posts.freeSlug(kind.type, trashedSlug(row.slug), row.id);
        await posts.update(row.id, { status: 'trash', slug, ...modifiedNow(site.timezone, now) });
        await linkedRepository(trx, kind).unlinkFromEvents(row.id);
      });
      generation.bump();
    },
    /** Deletes for good (`tec/v1`'s `force=true`); events that linked it no longer do. */
    async remove(row: LinkedRow): Promise<void> {
      await writeTransaction(db, async (trx) => {
        await linkedRepository(trx, kind).unlinkFromEvents(row.id);
        await postRepository(trx).remove(row.id);
      });
      generation.bump();
    },
  };
}

export type LinkedService = ReturnType<typeof linkedService>;
