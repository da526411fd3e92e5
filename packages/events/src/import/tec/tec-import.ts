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
import { POST_TYPES, storedPostIds, type PostKind } from './stored-posts.ts';
import { TermWrites } from './tec-terms.ts';
import { imageUrl, writeImages, type ImageReport } from './tec-images.ts';
import { refusal, TEC_KINDS, TecImportError, type KindCounts, type TecKind } from './tec-error.ts';
import { readEvent, readItem, type TecEvent, type TecItem } from './tec-items.ts';
import { eventParams, linkedParams, sameParams, type IdMap } from './tec-params.ts';
import type { TecSite } from './tec-source.ts';

export interface TecImportReport {
  readonly source: string;
  readonly dryRun: boolean;
  /** Whether the target was empty, so the source's ids were kept. */
  readonly keptIds: boolean;
  /** Items written under another id than the source's (all of them into a store that was not empty). */
  readonly remapped: number;
  readonly counts: Readonly<Record<TecKind, KindCounts>>;
  /** Featured images set (or, in a dry run, to set) on posts without one, and those that failed. */
  readonly images: ImageReport;
}

/** Who writes and where: the same as a CSV import's. */
export type TecImportDeps = CsvImportDeps;

/** Thrown to roll a dry run back after it wrote everything: its counts are exact. */
class DryRunDone extends Error {
  constructor(readonly report: TecImportReport) {
    super('dry run');
  }
}

/** A refused item refuses the whole import (the write loop's rule without --skip-bad); its message names the item. */
const refuseWhole = <T>(): ItemRefusals<T> => ({
  skipBad: false,
  reasonOf: (err) => (err instanceof TecImportError || err instanceof ApiError ? err.message : undefined),
  refuseAll: (_, reason) => new TecImportError('bad_items', reason),
  skipped: () => undefined,
});

/**
 * Imports what `readTecSite` read, in one transaction through the services the REST writes use (README, "Import from
 * a site running the plugin"): terms first, then venues, organizers and events in ascending source id. Into an empty
 * store every item keeps its id and slug; otherwise the store assigns ids and references are mapped. An item whose
 * slug is stored already (an earlier import) is updated when it differs and left alone when not, so importing again
 * writes nothing. Any item the write rules refuse refuses the whole import.
 * @example await importTec({ db, site, config, caller, now }, await readTecSite(url, options), { dryRun: false })
 */
export async function importTec(
  deps: TecImportDeps,
  site: TecSite,
  opts: { dryRun: boolean },
): Promise<TecImportReport> {
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
    const terms = new TermWrites(db, s, keepIds, map, created, counts, ids);
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
    // Posts stored by an earlier import, found first so every reference maps whatever the order of the writes.
    const stored = await storedPostIds(db, posts);
    for (const kind of Object.keys(POST_TYPES) as PostKind[])
      for (const [from, to] of stored[kind]) ids[kind].set(from, to);
    const linkLater: TecEvent[] = [];
    const args = {
      venues: linkedWriteArgs({ service: s.venues, userExists: s.userExists, imageArg: s.imageArg }, true),
      organizers: linkedWriteArgs({ service: s.organizers, userExists: s.userExists, imageArg: s.imageArg }, true),
      eventCreate: eventWriteArgs(s.eventArgDeps, true),
      eventUpdate: eventWriteArgs(s.eventArgDeps, false),
    };
    const check = async (kind: TecKind, item: TecItem, set: ArgSet, raw: Record<string, unknown>) => {
      const params = await checkArgs<Record<string, unknown>>(set, raw, deps.caller).catch((err: unknown) => {
        throw err instanceof ApiError ? refusal(kind, item, err) : err;
      });
      // The slug is not a tribe/events/v1 field of venues and organizers; it is kept the way tec/v1 writes it.
      if (item.slug === '') return { params, sent: new Set(Object.keys(raw)) };
      return { params: { ...params, slug: item.slug }, sent: new Set([...Object.keys(raw), 'slug']) };
    };
    const eventMaps = {
      venue: map('venues'),
      organizer: map('organizers'),
      category: map('categories'),
      tag: map('tags'),
    };
    const writePost = async ({ kind, item }: (typeof posts)[number]): Promise<void> => {
      const existing = ids[kind].get(item.id);
      if (kind === 'events') {
        const e = item as TecEvent;
        const { params: raw, complete } = eventParams(e, eventMaps);
        const row = existing === undefined ? undefined : await s.events.findById(existing);
        if (row !== undefined) {
          ids.events.set(e.id, row.id);
          const stored = readEvent(await s.events.presentWritten(row, deps.caller), { url: 'target', path: '$' });
          const same = (x: number) => x;
          if (
            complete &&
            sameParams(eventParams(stored, { venue: same, organizer: same, category: same, tag: same }).params, raw)
          ) {
            counts.events.unchanged++;
            return;
          }
          const c = await check('events', e, args.eventUpdate, raw);
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
      const raw = linkedParams(kind === 'venues' ? 'venue' : 'organizer', item);
      const c = await check(kind, item, args[kind], raw);
      const row = existing === undefined ? undefined : await service.get(existing);
      if (row !== undefined) {
        ids[kind].set(item.id, row.id);
        const storedJson = await service.present(row, false);
        const stored = readItem(storedJson, kind === 'venues' ? 'venue' : 'organizer', { url: 'target', path: '$' });
        if (sameParams(linkedParams(kind === 'venues' ? 'venue' : 'organizer', stored), raw)) {
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
    await writeItems(db, posts, writePost, refuseWhole());
    // Events whose venue or organizer had a higher id than theirs: linked now that every post is written.
    await writeItems(
      db,
      linkLater,
      async (e) => {
        const row = (await s.events.findById(ids.events.get(e.id)!))!;
        const c = await check('events', e, args.eventUpdate, eventParams(e, eventMaps).params);
        await s.events.update(deps.caller, row, c.params, c.sent, deps.now);
      },
      refuseWhole(),
    );
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
    const report = { source: site.api, dryRun: opts.dryRun, keptIds: keepIds, remapped, counts, images };
    if (opts.dryRun) throw new DryRunDone(report);
    return report;
  };
  return writeTransaction(deps.db, run).catch((err: unknown) => {
    if (err instanceof DryRunDone) return err.report;
    throw err;
  });
}
