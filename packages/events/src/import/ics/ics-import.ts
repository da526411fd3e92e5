import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type ICAL from 'ical.js';
import type { Database } from '../../db/index.ts';
import { checkArgs } from '../../http/args.ts';
import { ApiError } from '../../http/errors.ts';
import { eventWriteArgs } from '../../event/index.ts';
import { writeTransaction, WriteGeneration } from '../../post/index.ts';
import { composeServices, type Services } from '../../services.ts';
import type { CsvImportDeps } from '../csv/csv-import.ts';
import { linkedMemo } from '../csv/linked-memo.ts';
import { IcsImportError, ItemRefused, type ItemProblem } from './ics-error.ts';
import { DEFAULT_ICS_LIMITS, readIcs, type IcsLimits } from './ics-file.ts';
import { icalLinksRepository, linkKey } from './ical-links.repository.ts';
import { CLEARED, recurrenceKey, veventItem, type VeventItem } from './vevent-item.ts';
import { writeItems } from '../item-writes.ts';

export interface IcsImportOptions {
  /** Check every VEVENT and report what would change; write nothing. */
  readonly dryRun: boolean;
  /** Import the good VEVENTs and report the bad ones, instead of refusing the whole feed. */
  readonly skipBad: boolean;
  /** Trash the events imported from this source earlier that the feed no longer has. */
  readonly trashVanished: boolean;
  readonly limits: IcsLimits;
}

export const defaultIcsImportOptions: IcsImportOptions = {
  dryRun: false,
  skipBad: false,
  trashVanished: true,
  limits: DEFAULT_ICS_LIMITS,
};

export interface IcsImportReport {
  readonly source: string;
  readonly dryRun: boolean;
  /** VEVENTs in the feed (overrides included). */
  readonly vevents: number;
  readonly created: number;
  readonly updated: number;
  /** Imported before and the same now: not written at all (their ETags stay). */
  readonly unchanged: number;
  /** Events that left the feed, and cancelled occurrences, moved to the trash. */
  readonly trashed: number;
  readonly refused: readonly ItemProblem[];
}

/** Who writes and where: the same as a CSV import's. */
export type IcsImportDeps = CsvImportDeps;

/** A series (or a plain event) of the feed with the overrides of its occurrences. */
interface Group {
  readonly master: VeventItem;
  /** The link key of the master: its UID, or UID and RECURRENCE-ID for an override whose series is not in the feed. */
  readonly rid: string;
  readonly overrides: VeventItem[];
}

const digestOf = (params: Record<string, unknown>): string =>
  createHash('sha256').update(JSON.stringify(params)).digest('base64url');

function reasonOf(err: ApiError): string {
  const params = err.extra.params;
  if (err.code === 'rest_invalid_param' && params !== null && typeof params === 'object')
    return Object.entries(params as Record<string, string>)
      .map(([k, m]) => `${k}: ${m}`)
      .join('; ');
  return err.message;
}

const byUid = (a: ItemProblem, b: ItemProblem) => (a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0);

const badEvents = (problems: readonly ItemProblem[]) =>
  new IcsImportError(
    'bad_events',
    `${problems.length} VEVENT(s) refused, nothing imported (--skip-bad imports the others): ${problems
      .slice(0, 5)
      .map((p) => `${p.uid}${p.recurrenceId ? ` (${p.recurrenceId})` : ''}: ${p.reason}`)
      .join('; ')}`,
    problems,
  );

/** The VEVENTs as series with their overrides; a cancelled series counts as absent; refusals go to `problems`. */
function groupItems(
  vevents: readonly ICAL.Component[],
  zones: ReadonlyMap<string, ICAL.Timezone>,
  deps: IcsImportDeps,
  problems: ItemProblem[],
): Group[] {
  const ctx = { siteZone: deps.site.timezone, now: deps.now, zones };
  const masters = new Map<string, Group>();
  const overrides: VeventItem[] = [];
  for (const v of vevents) {
    try {
      const item = veventItem(v, ctx);
      if (item.recurrenceId !== undefined) overrides.push(item);
      else if (masters.has(item.uid)) problems.push({ uid: item.uid, reason: 'the UID appears on two VEVENTs' });
      else if (!item.cancelled) masters.set(item.uid, { master: item, rid: '', overrides: [] });
    } catch (err) {
      if (!(err instanceof ItemRefused)) throw err;
      const uid = v.getFirstPropertyValue('uid');
      problems.push({ uid: typeof uid === 'string' ? uid : '(none)', reason: err.message });
    }
  }
  const loose: Group[] = [];
  for (const o of overrides) {
    const group = masters.get(o.uid);
    if (group !== undefined) group.overrides.push(o);
    // An override whose series is not in the feed (a calendar shares one occurrence) is an event of its own.
    else if (!o.cancelled)
      loose.push({ master: o, rid: recurrenceKey(o.recurrenceId!, o.zone, ctx.siteZone), overrides: [] });
  }
  return [...masters.values(), ...loose];
}

/**
 * Imports an iCalendar feed as REST writes would, all or nothing (README, "iCalendar import"): every VEVENT becomes
 * an event keyed by its UID (RECURRENCE-ID for an overridden occurrence), checked with the REST write's own argument
 * rules, then written in one transaction through the same services. Importing the same feed again writes nothing;
 * a changed VEVENT updates its event; an event that left `source` is trashed (`trashVanished`).
 * @example await importIcs({ db, site, config, caller, now }, bytes, 'https://example.com/cal.ics', defaultIcsImportOptions)
 */
export async function importIcs(
  deps: IcsImportDeps,
  bytes: Uint8Array,
  source: string,
  opts: IcsImportOptions,
): Promise<IcsImportReport> {
  const file = readIcs(bytes, opts.limits);
  const problems: ItemProblem[] = [];
  const groups = groupItems(file.vevents, file.zones, deps, problems);
  const run = async (db: Kysely<Database>): Promise<IcsImportReport> => {
    const s = composeServices(db, deps.site, new WriteGeneration(), deps.config, { itemCacheBytes: 0 });
    const createArgs = eventWriteArgs(s.eventArgDeps, true);
    const updateArgs = eventWriteArgs(s.eventArgDeps, false);
    const repo = icalLinksRepository(db);
    const links = await repo.find(
      groups.map((g) => g.master.uid),
      source,
    );
    const stored = await repo.existingEvents([...links.values()].map((l) => l.post_id));
    const counts = { created: 0, updated: 0, unchanged: 0, trashed: 0 };
    let memo = linkedMemo(s.events);
    const check = async (item: VeventItem, rid: string, update: boolean) => {
      try {
        const raw = update ? { ...CLEARED, ...item.params } : item.params;
        if (update && rid === '' && !('recurrence' in raw)) raw.recurrence = '';
        return {
          params: await checkArgs<Record<string, unknown>>(update ? updateArgs : createArgs, raw, deps.caller),
          sent: new Set(Object.keys(raw)),
        };
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        problems.push({ uid: item.uid, ...(rid ? { recurrenceId: rid } : {}), reason: reasonOf(err) });
        return undefined;
      }
    };
    // Checked first, all of them, so a refused feed reports every bad VEVENT and writes nothing.
    const planned = [];
    for (const g of groups) {
      const link = links.get(linkKey(g.master.uid, g.rid));
      const digest = digestOf(g.master.params);
      // A link whose post was deleted since is created again: checked as a create.
      const update = link !== undefined && stored.has(link.post_id);
      const same = update && link.digest === digest;
      const checked = same ? undefined : await check(g.master, g.rid, update);
      if (!same && checked === undefined) continue;
      const overrides = [];
      for (const o of g.overrides) {
        const rid = recurrenceKey(o.recurrenceId!, g.master.zone, deps.site.timezone);
        const oChecked = o.cancelled ? undefined : await check(o, rid, true);
        if (o.cancelled || oChecked !== undefined) overrides.push({ item: o, rid, checked: oChecked });
      }
      planned.push({ group: g, digest, same, checked, overrides });
    }
    problems.sort(byUid);
    if (problems.length > 0 && !opts.skipBad) throw badEvents(problems);
    const present = new Set<string>();
    for (const p of planned) {
      present.add(linkKey(p.group.master.uid, p.group.rid));
      for (const o of p.overrides) present.add(linkKey(o.item.uid, o.rid));
    }
    if (opts.dryRun) {
      for (const p of planned) {
        const link = links.get(linkKey(p.group.master.uid, p.group.rid));
        if (p.same) counts.unchanged++;
        else if (link === undefined) counts.created++;
        else counts.updated++;
      }
    } else {
      // One savepoint per series with skipBad: a write refused late (a date out of range) undoes that series alone.
      let before = { ...counts };
      await writeItems(
        db,
        planned,
        (p) => {
          before = { ...counts };
          return writeGroup(s, deps, source, p, links, counts, repo, memo);
        },
        {
          skipBad: opts.skipBad,
          reasonOf: (err) =>
            err instanceof ApiError ? reasonOf(err) : err instanceof ItemRefused ? err.message : undefined,
          refuseAll: (p, reason) => badEvents([{ uid: p.group.master.uid, reason }]),
          skipped: (p, reason) => {
            Object.assign(counts, before);
            // Venues and organizers the undone series created are gone again: forget every id learnt.
            memo = linkedMemo(s.events);
            problems.push({ uid: p.group.master.uid, reason });
          },
        },
      );
    }
    // Events imported from this source before and gone from it now. A gone override only loses its link (its
    // occurrence keeps its edits); trashing it would exclude the start from a series that still has it.
    for (const link of links.values()) {
      if (link.source !== source || present.has(linkKey(link.uid, link.recurrence_id))) continue;
      if (!opts.trashVanished && link.recurrence_id === '') continue;
      const row = link.recurrence_id === '' ? await s.events.findById(link.post_id) : undefined;
      if (row !== undefined && row.status !== 'trash') {
        counts.trashed++;
        if (!opts.dryRun) await s.events.trash(row, deps.now);
      }
      if (!opts.dryRun) await repo.remove(link.uid, link.recurrence_id);
    }
    problems.sort(byUid);
    return { source, dryRun: opts.dryRun, vevents: file.vevents.length, ...counts, refused: problems };
  };
  // A dry run only reads; an import reads and writes in one transaction, so its checks see what it writes.
  return opts.dryRun ? run(deps.db) : writeTransaction(deps.db, run);
}

interface Planned {
  readonly group: Group;
  readonly digest: string;
  readonly same: boolean;
  readonly checked: { params: Record<string, unknown>; sent: ReadonlySet<string> } | undefined;
  readonly overrides: ReadonlyArray<{
    item: VeventItem;
    rid: string;
    checked: { params: Record<string, unknown>; sent: ReadonlySet<string> } | undefined;
  }>;
}

/** Writes one series (or plain event) and its overrides; the links record what was written. */
async function writeGroup(
  s: Services,
  deps: IcsImportDeps,
  source: string,
  p: Planned,
  links: Map<string, { post_id: number; digest: string; source: string }>,
  counts: { created: number; updated: number; unchanged: number; trashed: number },
  repo: ReturnType<typeof icalLinksRepository>,
  memo: ReturnType<typeof linkedMemo>,
): Promise<void> {
  const { master } = p.group;
  const link = links.get(linkKey(master.uid, p.group.rid));
  let id = link?.post_id;
  if (p.same) counts.unchanged++;
  else {
    const row = id === undefined ? undefined : await s.events.findById(id);
    if (row === undefined) {
      // Never imported, or its post was deleted since (then checked as a create): created (again).
      const { params, pending } = memo.apply(p.checked!.params);
      id = await s.events.create(deps.caller, params, p.checked!.sent, deps.now);
      if (pending) await memo.learn(id, params);
      counts.created++;
    } else {
      await s.events.update(deps.caller, row, p.checked!.params, p.checked!.sent, deps.now);
      counts.updated++;
    }
  }
  if (!p.same || link?.source !== source)
    await repo.save(
      { uid: master.uid, recurrence_id: p.group.rid, source, post_id: id!, digest: p.digest },
      link !== undefined,
    );
  for (const o of p.overrides) {
    const occurrence = await repo.occurrence(id!, o.rid);
    if (occurrence === undefined)
      throw new ItemRefused(
        `RECURRENCE-ID ${o.rid} is not an occurrence of the series (its rule or RDATEs do not give it)`,
      );
    const key = linkKey(o.item.uid, o.rid);
    const oLink = links.get(key);
    const digest = o.item.cancelled ? 'cancelled' : digestOf(o.item.params);
    if (oLink?.digest === digest && oLink.post_id === occurrence) {
      counts.unchanged++;
      if (oLink.source !== source)
        await repo.save({ uid: o.item.uid, recurrence_id: o.rid, source, post_id: occurrence, digest }, true);
      continue;
    }
    const row = await s.events.findById(occurrence);
    if (row === undefined) continue;
    if (o.item.cancelled) {
      if (row.status !== 'trash') {
        await s.events.trash(row, deps.now);
        counts.trashed++;
      }
    } else {
      await s.events.update(deps.caller, row, o.checked!.params, o.checked!.sent, deps.now);
      counts.updated++;
    }
    await repo.save(
      { uid: o.item.uid, recurrence_id: o.rid, source, post_id: occurrence, digest },
      oLink !== undefined,
    );
  }
}
