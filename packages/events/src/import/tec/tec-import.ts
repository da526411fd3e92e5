import type { Kysely } from 'kysely';
import type { Database } from '../../db/index.ts';
import { checkArgs, type ArgSet } from '../../http/args.ts';
import { ApiError } from '../../http/errors.ts';
import { eventWriteArgs } from '../../event/index.ts';
import { linkedWriteArgs, writeTransaction, WriteGeneration } from '../../post/index.ts';
import { composeServices } from '../../services.ts';
import type { CsvImportDeps } from '../csv/csv-import.ts';
import { writeItems, type ItemRefusals } from '../item-writes.ts';
import { claimNextId, isEmptyStore } from './keep-ids.ts';
import { POST_TYPES, slugFree, storedPostIds, type PostKind } from './stored-posts.ts';
import { linkSource, tecLinksRepository } from './tec-links.repository.ts';
import { TermWrites } from './tec-terms.ts';
import { imageUrl, writeImages, type ImageReport } from './tec-images.ts';
import { describe, refusal, TEC_KINDS, type KindCounts, type TecKind } from './tec-error.ts';
import { reasonOf } from '../csv/csv-import.ts';
import { readEvent, readItem, type TecEvent, type TecItem } from './tec-items.ts';
import { eventParams, linkedParams, sameParams, type IdMap } from './tec-params.ts';
import type { TecSite } from './tec-source.ts';
import { skippedLinks } from './skipped-links.ts';
import { importUsers, type TecUsersReport } from './tec-users.ts';

export interface TecImportReport {
  readonly source: string;
  readonly dryRun: boolean;
  /** Whether the target was empty, so the source's ids were kept. */
  readonly keptIds: boolean;
  /** Items written under another id than the source's (all of them into a store that was not empty). */
  readonly remapped: number;
  /** Items whose post or term an earlier import linked was deleted (or trashed) here: imported again as new. */
  readonly deletedHere: number;
  readonly counts: Readonly<Record<TecKind, KindCounts>>;
  /** Featured images set (or, in a dry run, to set) on posts without one, and those that failed. */
  readonly images: ImageReport;
  /** Venues, organizers and events the write rules refused, left out (only with `skipBad`). */
  readonly skipped: readonly TecSkipped[];
  /** Events written without a venue or organizer they name (it was skipped, or linking it was refused). */
  readonly unlinked: readonly TecUnlinked[];
  /** The source's users: created or matched here, and the items whose author stays the importing user. */
  readonly users: TecUsersReport;
}

/** An item left out by `--skip-bad`: its list, its source id and slug, and why the write rules refused it. */
export interface TecSkipped {
  readonly kind: TecKind;
  readonly id: number;
  readonly slug: string;
  readonly reason: string;
}

/** An event written without some of its links: `events 7 (gala)`, and what is missing. */
export interface TecUnlinked {
  readonly event: string;
  readonly reason: string;
}

export interface TecImportOptions {
  readonly dryRun: boolean;
  /** Leave out the items the write rules refuse (each undone alone, reported) instead of refusing the import. */
  readonly skipBad?: boolean;
}

/** Who writes and where: the same as a CSV import's. */
export type TecImportDeps = CsvImportDeps;

/** Thrown to roll a dry run back after it wrote everything: its counts are exact. */
class DryRunDone extends Error {
  constructor(readonly report: TecImportReport) {
    super('dry run');
  }
}

type Posted = { readonly kind: TecKind; readonly item: TecItem };

/**
 * The write loop's rules for posts (item-writes.ts): an item the REST write rules refuse refuses the whole import,
 * its message naming it, or with `skipBad` is undone alone and handed to `skipped`.
 */
const postRefusals = <T extends Posted>(
  skipBad: boolean,
  skipped: (p: T, reason: string) => void,
): ItemRefusals<T> => ({
  skipBad,
  reasonOf: (err) => (err instanceof ApiError ? reasonOf(err) : undefined),
  refuseAll: ({ kind, item }, reason) => refusal(kind, item, reason),
  skipped,
});

/**
 * Imports what `readTecSite` read, in one transaction through the services the REST writes use (README, "Import from
 * a site running the plugin"): terms first, then venues, organizers and events in ascending source id. Into an empty
 * store every item keeps its id and slug; otherwise the store assigns ids and references are mapped. An item an
 * earlier import wrote (found by its `tec_links` link, or by slug if never linked) is updated when it differs and
 * left alone when not, so importing again writes nothing; every item is linked in this transaction. A venue, organizer or event the write rules refuse refuses the whole import, or with `skipBad` is
 * left out and reported; an event naming a venue or organizer left out is written without it and reported too.
 * A refused category or tag always refuses the import (events would lose it silently).
 * @example await importTec({ db, site, config, caller, now }, await readTecSite(url, options), { dryRun: false })
 */
export async function importTec(deps: TecImportDeps, site: TecSite, opts: TecImportOptions): Promise<TecImportReport> {
  const run = async (db: Kysely<Database>): Promise<TecImportReport> => {
    const s = composeServices(db, deps.site, new WriteGeneration(), deps.config, { itemCacheBytes: 0 });
    const keepIds = await isEmptyStore(db);
    const counts = Object.fromEntries(TEC_KINDS.map((k) => [k, { created: 0, updated: 0, unchanged: 0 }])) as Record<
      TecKind,
      KindCounts
    >;
    const ids = Object.fromEntries(TEC_KINDS.map((k) => [k, new Map<number, number>()])) as Record<
      TecKind,
      Map<number, number>
    >;
    const map =
      (kind: TecKind): IdMap =>
      (id) =>
        ids[kind].get(id);
    let remapped = 0;
    const created = (kind: TecKind, item: TecItem, id: number) => {
      ids[kind].set(item.id, id);
      counts[kind].created++;
      if (id !== item.id) remapped++;
    };
    const links = tecLinksRepository(db);
    const source = linkSource(site.api);
    let deletedHere = 0;
    const terms = new TermWrites({
      db,
      s,
      links,
      source,
      keepIds,
      map,
      created,
      counts,
      ids,
      deletedHere: () => deletedHere++,
    });
    // One id sequence for both taxonomies (WordPress numbers all terms together): ascending ids keep them all.
    await terms.write([
      ...site.categories.map((item) => ({ kind: 'categories' as const, item })),
      ...site.tags.map((item) => ({ kind: 'tags' as const, item })),
    ]);
    const posts = [
      ...site.venues.map((item) => ({ kind: 'venues' as const, item })),
      ...site.organizers.map((item) => ({ kind: 'organizers' as const, item })),
      ...site.events.map((item) => ({ kind: 'events' as const, item })),
    ].sort((a, b) => a.item.id - b.item.id);
    // Authors before their posts: each post's author is mapped to the local user.
    const users = await importUsers(
      { db, s, links, source, keepIds, now: deps.now },
      site.users,
      posts.map((p) => p.item),
    );
    // Posts stored by an earlier import, found first so every reference maps whatever the order of the writes.
    const stored = await storedPostIds(db, links, source, posts);
    deletedHere += stored.deletedHere;
    for (const kind of Object.keys(POST_TYPES) as PostKind[])
      for (const [from, to] of stored.ids[kind]) ids[kind].set(from, to);
    const linkLater: TecEvent[] = [];
    const skipped: TecSkipped[] = [];
    const skippedKeys = new Set<string>();
    const isSkipped = (kind: TecKind, id: number) => skippedKeys.has(`${kind} ${id}`);
    const args = {
      venues: linkedWriteArgs({ service: s.venues, userExists: s.userExists, imageArg: s.imageArg }, true),
      organizers: linkedWriteArgs({ service: s.organizers, userExists: s.userExists, imageArg: s.imageArg }, true),
      eventCreate: eventWriteArgs(s.eventArgDeps, true),
      eventUpdate: eventWriteArgs(s.eventArgDeps, false),
    };
    /** `slug`: whether to write the source's slug (always on a create; on an update only if it moved, `movedSlug`). */
    const check = async (kind: TecKind, item: TecItem, set: ArgSet, raw: Record<string, unknown>, slug = true) => {
      const params = await checkArgs<Record<string, unknown>>(set, raw, deps.caller);
      // The slug is not a tribe/events/v1 field of venues and organizers; it is kept the way tec/v1 writes it.
      if (item.slug === '' || !slug) return { params, sent: new Set(Object.keys(raw)) };
      return { params: { ...params, slug: item.slug }, sent: new Set([...Object.keys(raw), 'slug']) };
    };
    /** The local slug follows the source's where no other post of the type holds it; else it stays. */
    const movedSlug = async (kind: PostKind, item: TecItem, row: { id: number; slug: string }) =>
      item.slug !== '' && item.slug !== row.slug && (await slugFree(db, POST_TYPES[kind], item.slug, row.id));
    const eventMaps = {
      venue: map('venues'),
      organizer: map('organizers'),
      category: map('categories'),
      tag: map('tags'),
      author: users.author,
    };
    const writePost = async ({ kind, item }: (typeof posts)[number]): Promise<void> => {
      const existing = ids[kind].get(item.id);
      if (kind === 'events') {
        const e = item as TecEvent;
        const { params: raw, complete } = eventParams(e, eventMaps, isSkipped);
        const row = existing === undefined ? undefined : await s.events.findById(existing);
        if (row !== undefined) {
          ids.events.set(e.id, row.id);
          const stored = readEvent(await s.events.presentWritten(row, deps.caller), { url: 'target', path: '$' });
          const same = (x: number) => x;
          const slug = await movedSlug('events', e, row);
          if (
            complete &&
            !slug &&
            sameParams(
              eventParams(stored, { venue: same, organizer: same, category: same, tag: same, author: same }).params,
              raw,
            )
          ) {
            counts.events.unchanged++;
            return;
          }
          const c = await check('events', e, args.eventUpdate, raw, slug);
          await s.events.update(deps.caller, row, c.params, c.sent, deps.now);
          counts.events.updated++;
        } else {
          const c = await check('events', e, args.eventCreate, raw);
          if (keepIds) await claimNextId(db, 'posts', e.id);
          created('events', e, await s.events.create(deps.caller, c.params, c.sent, deps.now));
        }
        if (!complete) linkLater.push(e);
        return;
      }
      const service = kind === 'venues' ? s.venues : s.organizers;
      const raw = linkedParams(kind === 'venues' ? 'venue' : 'organizer', item, users.author);
      const row = existing === undefined ? undefined : await service.get(existing);
      const slug = row === undefined || (await movedSlug(kind, item, row));
      const c = await check(kind, item, args[kind], raw, slug);
      if (row !== undefined) {
        ids[kind].set(item.id, row.id);
        const storedJson = await service.present(row, false);
        const stored = readItem(storedJson, kind === 'venues' ? 'venue' : 'organizer', { url: 'target', path: '$' });
        if (
          !slug &&
          sameParams(
            linkedParams(kind === 'venues' ? 'venue' : 'organizer', stored, (x) => x),
            raw,
          )
        ) {
          counts[kind].unchanged++;
          return;
        }
        await service.update(deps.caller, row.id, c.params, c.sent, deps.now);
        counts[kind].updated++;
        return;
      }
      if (keepIds) await claimNextId(db, 'posts', item.id);
      created(kind, item, await service.create(deps.caller, c.params, c.sent, deps.now, { dedupe: false }));
    };
    const unlinked: TecUnlinked[] = [];
    const skipBad = opts.skipBad === true;
    await writeItems(
      db,
      posts,
      writePost,
      // Nothing to reset: ids and counts change only once an item's write went through.
      postRefusals(skipBad, ({ kind, item }, reason) => {
        skipped.push({ kind, id: item.id, slug: item.slug, reason });
        skippedKeys.add(`${kind} ${item.id}`);
      }),
    );
    // Events whose venue or organizer had a higher id than theirs: linked now that every post is written. A link
    // refused (with `skipBad`) leaves the event as first written, without it.
    await writeItems(
      db,
      linkLater.filter((e) => ids.events.has(e.id)).map((item) => ({ kind: 'events' as const, item })),
      async ({ item: e }) => {
        const row = (await s.events.findById(ids.events.get(e.id)!))!;
        const c = await check('events', e, args.eventUpdate, eventParams(e, eventMaps).params);
        await s.events.update(deps.caller, row, c.params, c.sent, deps.now);
      },
      postRefusals(skipBad, ({ kind, item }, reason) =>
        unlinked.push({ event: describe(kind, item), reason: `its venue and organizers not linked: ${reason}` }),
      ),
    );
    unlinked.push(...skippedLinks(site.events, ids, skipped));
    // Every item written or matched is linked (again), in this transaction: the next import finds it by its id.
    for (const kind of TEC_KINDS) await links.save(source, kind, ids[kind]);
    const images = await writeImages(
      db,
      s,
      deps,
      posts.flatMap(({ kind, item }) => {
        const url = imageUrl(item);
        const postId = ids[kind].get(item.id);
        return url === undefined || postId === undefined ? [] : [{ kind, item, postId, url }];
      }),
      opts.dryRun,
    );
    const report = {
      source: site.api,
      dryRun: opts.dryRun,
      keptIds: keepIds,
      remapped,
      deletedHere,
      counts,
      images,
      skipped,
      unlinked,
      users: users.report,
    };
    if (opts.dryRun) throw new DryRunDone(report);
    return report;
  };
  return writeTransaction(deps.db, run).catch((err: unknown) => {
    if (err instanceof DryRunDone) return err.report;
    throw err;
  });
}
