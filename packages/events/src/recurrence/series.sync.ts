import type { Kysely } from 'kysely';
import type { Database, EventColumns, EventsTable, OccurrenceColumns } from '../db/index.ts';
import { invalidParam } from '../http/errors.ts';
import { postRepository, trashedSlug, untrashedSlug } from '../post/index.ts';
import { termRepository } from '../term/index.ts';
import {
  formatWall,
  isStorableInstant,
  readStoredWall,
  utcToWall,
  wallFromEpoch,
  wallToEpoch,
  wallToUtc,
  type Wall,
} from '../time/index.ts';
import type { ExpandOptions } from './expand.ts';
import { settlePlan, type SeriesPlan } from './series.plan.ts';
import { seriesRepository, type SeriesOccurrence, type SeriesPost } from './series.repository.ts';

const utcText = (ms: number) => formatWall(wallFromEpoch(ms));

/** The date columns of an occurrence starting at `w`: the first event's wall-clock duration, in the series' zone. */
function occurrenceDates(
  first: SeriesPost,
  w: Wall,
): Pick<EventsTable, 'start_local' | 'end_local' | 'start_utc' | 'end_utc'> {
  const s = readStoredWall(first.start_local),
    e = readStoredWall(first.end_local);
  if (s === undefined || e === undefined)
    throw invalidParam('recurrence', 'The first event has a broken stored date: send start_date and end_date.');
  const zone = first.timezone;
  const startMs = wallToUtc(w, zone);
  // A start in a spring-forward gap is shifted forward by the gap (02:30 → 03:30, PHP's and RFC 5545 §3.3.5's rule);
  // the end moves with it, so the occurrence keeps its length, as feed readers expand it from DTSTART and DTEND.
  const gapShift = first.all_day === 1 ? 0 : wallToEpoch(utcToWall(startMs, zone)) - wallToEpoch(w);
  const endWall = wallFromEpoch(wallToEpoch(w) + gapShift + (wallToEpoch(e) - wallToEpoch(s)));
  const endMs = wallToUtc(endWall, zone);
  // Only an occurrence near the year 9999 can leave the range; the transaction is then rolled back whole.
  if (!isStorableInstant(startMs, zone) || !isStorableInstant(endMs, zone)) {
    throw invalidParam(
      'recurrence',
      `The occurrence of ${formatWall(w)} would end outside the dates that can be stored (years 1000 to 9999).`,
    );
  }
  // All-day occurrences keep their midnight and 23:59:59 walls; timed ones show the instant's wall (02:30 in a
  // spring-forward gap is 03:30), as a direct write of that start would.
  const local = (wall: Wall, ms: number) => formatWall(first.all_day === 1 ? wall : utcToWall(ms, zone));
  return {
    start_local: local(w, startMs),
    end_local: local(endWall, endMs),
    start_utc: utcText(startMs),
    end_utc: utcText(endMs),
  };
}

/**
 * Pro's occurrence slugs: the series' slug with the occurrence's date (`weekly-meetup-2018-01-19`). Stored for drafts
 * too (slugs are unique per type); bodies show a draft's as empty, as for any draft.
 */
const occurrenceSlugBase = (first: SeriesPost, w: Wall) =>
  `${untrashedSlug(first.slug) || 'event'}-${formatWall(w).slice(0, 10)}`;

/** How a write carries its plan into the series: whether it sent a rule, and the bounds to plan again within. */
export interface SyncOptions {
  readonly sentRule: boolean;
  readonly expand: ExpandOptions;
  /** The columns an occurrence copies from the first event (the event field table's `copy` rule). */
  readonly copy: (first: EventColumns) => OccurrenceColumns;
}

/**
 * Makes the stored occurrences match the plan inside the write's transaction, which holds the series lock
 * (`lockSeriesOf`): occurrences not edited on their own become copies of the first event at their dates (ids kept),
 * new starts get new posts, starts the rule lost are deleted (edited ones are detached into plain events, trashed ones
 * stay in the trash). An occurrence deleted on its own (`excluded`) is never written again, whatever rule is sent: its
 * start stays out of the series. The plan is made again when a write committed since made it stale (`settlePlan`).
 */
export async function syncSeries(
  trx: Kysely<Database>,
  firstId: number,
  planned: SeriesPlan | undefined,
  opts: SyncOptions,
): Promise<void> {
  const repo = seriesRepository(trx);
  const posts = postRepository(trx);
  const stored = await repo.findSpec(firstId);
  // A plain event's update (no rule sent, none stored) has nothing more to do: one read.
  if (!opts.sentRule && stored === undefined) return;
  const first = await repo.event(firstId);
  if (first === undefined) return;
  const plan = await settlePlan(
    planned,
    opts.sentRule,
    { startLocal: first.start_local, zone: first.timezone, stored },
    opts.expand,
  );
  if (plan === undefined) return;
  const existing = await repo.occurrences(firstId);
  const termsBefore = await repo.termIdsOf(existing.map((o) => o.post_id));
  const byStart = new Map(existing.map((o) => [o.recurrence_id, o]));
  const wanted = plan.starts.map(formatWall);
  const wantedSet = new Set(wanted);
  // A start the rule lost whose day is still in it (the series' time of day moved) keeps its post and its edits, and
  // an occurrence deleted on its own stays deleted on that day.
  const sameDay = new Map<string, SeriesOccurrence[]>();
  for (const o of existing) {
    if (wantedSet.has(o.recurrence_id) || (o.status === 'trash' && o.excluded === 0)) continue;
    const day = o.recurrence_id.slice(0, 10);
    sameDay.set(day, [...(sameDay.get(day) ?? []), o]);
  }
  for (const key of wanted) {
    if (byStart.has(key)) continue;
    const moved = sameDay.get(key.slice(0, 10))?.shift();
    if (moved === undefined) continue;
    await repo.rekey(moved.post_id, key);
    byStart.set(key, { ...moved, recurrence_id: key });
  }
  const kept = new Set([...byStart.entries()].filter(([key]) => wantedSet.has(key)).map(([, o]) => o.post_id));
  const lost = existing.filter((o) => !kept.has(o.post_id) && o.status !== 'trash' && o.excluded === 0);
  await repo.deletePosts(lost.filter((o) => o.overridden === 0).map((o) => o.post_id));
  await repo.detach(lost.filter((o) => o.overridden === 1).map((o) => o.post_id));
  if (plan.spec === null) await repo.deleteSpec(firstId);
  else await repo.saveSpec(firstId, plan.spec);

  const postCols = {
    title: first.title,
    content: first.content,
    excerpt: first.excerpt,
    status: first.status,
    author: first.author,
    password: first.password,
    date_local: first.date_local,
    date_gmt: first.date_gmt,
    modified_local: first.modified_local,
    modified_gmt: first.modified_gmt,
    menu_order: first.menu_order,
  };
  const eventCols = { ...opts.copy(first), parent_id: firstId };
  const slugFor = async (w: Wall, current: string | undefined, id?: number) => {
    const base = occurrenceSlugBase(first, w);
    if (
      current !== undefined &&
      (current === base || new RegExp(`^${base.replace(/[^a-z0-9-]/g, '\\$&')}-\\d+$`).test(current))
    )
      return current;
    const free = await posts.freeSlug('tribe_events', base, id);
    return first.status === 'trash' ? trashedSlug(free) : free;
  };

  const followers: number[] = [];
  const created: { post_id: number; series_id: number; recurrence_id: string; overridden: number; excluded: number }[] =
    [];
  for (const w of plan.starts) {
    const key = formatWall(w);
    const had = byStart.get(key);
    if (had?.overridden === 1 || had?.excluded === 1) continue;
    const dates = occurrenceDates(first, w);
    if (had !== undefined) {
      await posts.update(had.post_id, { ...postCols, slug: await slugFor(w, had.slug, had.post_id) });
      await trx
        .updateTable('events')
        .set({ ...eventCols, ...dates })
        .where('post_id', '=', had.post_id)
        .execute();
      followers.push(had.post_id);
    } else {
      const id = await posts.insert({ type: 'tribe_events', slug: await slugFor(w, undefined), ...postCols });
      await trx
        .insertInto('events')
        .values({ post_id: id, ...eventCols, ...dates })
        .execute();
      followers.push(id);
      created.push({ post_id: id, series_id: firstId, recurrence_id: key, overridden: 0, excluded: 0 });
    }
  }
  await repo.insertOccurrences(created);
  await repo.copyLinks(firstId, followers);
  const termRepo = termRepository(trx);
  await termRepo.recount([...termsBefore, ...(await termRepo.termIdsOf(firstId))]);
}

/**
 * Marks an occurrence deleted on its own, inside the transaction that trashes it: its start leaves the series (an
 * EXDATE in the export) and no later write of the series, whatever rule it sends, brings it back.
 */
export async function excludeOccurrence(trx: Kysely<Database>, occurrenceId: number): Promise<void> {
  await seriesRepository(trx).setExcluded(occurrenceId, true);
}
