import type { Kysely } from 'kysely';
import type { Database } from '../db/index.ts';
import { exdateOf, seriesRepository, type OccurrenceRow, type SeriesOccurrence } from './series.repository.ts';
import type { RecurrenceSpec } from './rule.ts';

/**
 * The stored rule with the starts of occurrences deleted on their own added to its EXDATEs: exclusions are kept apart
 * from the rule a client sends (they outlive any resend of it), and read back as EXDATEs.
 */
function withExclusions(spec: RecurrenceSpec, occurrences: readonly SeriesOccurrence[]): RecurrenceSpec {
  const excluded = occurrences.filter((o) => o.excluded === 1).map((o) => exdateOf(o.recurrence_id));
  return excluded.length === 0 ? spec : { ...spec, exdates: [...new Set([...spec.exdates, ...excluded])].sort() };
}

/** A series as one iCalendar VEVENT needs it: the first event, its rule and the occurrences edited on their own. */
export interface SeriesView<E> {
  readonly first: E;
  /** RRULE value without DTSTART (the first event's start), e.g. `FREQ=WEEKLY;COUNT=10`. */
  readonly rrule: string;
  /** iCalendar date values: `YYYYMMDD`, `YYYYMMDDTHHMMSS` (wall time in the first event's zone) or `…Z` (UTC). */
  readonly exdates: readonly string[];
  readonly rdates: readonly string[];
  /** Occurrences edited on their own (not trashed), each with the start the rule gave it (`YYYY-MM-DD HH:MM:SS`, series zone). */
  readonly overrides: ReadonlyArray<{ readonly recurrenceId: string; readonly event: E }>;
  /** Every occurrence post after the first (trashed ones included), in start order. */
  readonly occurrenceIds: readonly number[];
}

/**
 * The series `id` belongs to (as its first event or an occurrence); undefined for an event that does not recur.
 * `findEvent` reads events (the event service's cached reader), so bodies and rows stay the service's own.
 * @example const s = await readSeries(db, 42, events.findById); if (s) emit(s.first, s.rrule, s.exdates, s.overrides)
 */
export async function readSeries<E>(
  db: Kysely<Database>,
  id: number,
  findEvent: (id: number) => Promise<E | undefined>,
): Promise<SeriesView<E> | undefined> {
  const repo = seriesRepository(db);
  const firstId = (await repo.occurrence(id))?.series_id ?? id;
  const spec = await repo.findSpec(firstId);
  const first = await findEvent(firstId);
  if (spec === undefined || first === undefined) return undefined;
  const occurrences = await repo.occurrences(firstId);
  const overrides: Array<{ recurrenceId: string; event: E }> = [];
  for (const o of occurrences) {
    if (o.overridden !== 1 || o.status === 'trash') continue;
    const event = await findEvent(o.post_id);
    if (event !== undefined) overrides.push({ recurrenceId: o.recurrence_id, event });
  }
  const { exdates } = withExclusions(spec, occurrences);
  return {
    first,
    rrule: spec.rrule,
    exdates,
    rdates: spec.rdates,
    overrides,
    occurrenceIds: occurrences.map((o) => o.post_id),
  };
}

/** Whether `id` is the first event of a series, an occurrence of one, or neither. */
export async function seriesRole(
  db: Kysely<Database>,
  id: number,
): Promise<{ role: 'first' } | { role: 'occurrence'; seriesId: number } | { role: 'none' }> {
  const repo = seriesRepository(db);
  const occ = await repo.occurrence(id);
  if (occ !== undefined) return { role: 'occurrence', seriesId: occ.series_id };
  return (await repo.findSpec(id)) !== undefined ? { role: 'first' } : { role: 'none' };
}

/** A stored series as a feed needs it: the rule as stored (occurrences deleted alone among its EXDATEs) and every occurrence post after the first. */
export interface StoredSeries {
  readonly spec: RecurrenceSpec;
  readonly occurrences: readonly OccurrenceRow[];
}

/**
 * The series the events `ids` belong to, in at most three statements per 500 ids (no query per event or series):
 * `seriesOf` maps each member (first event or occurrence) to its series' first event, `series` holds each series.
 * @example const { seriesOf, series } = await readSeriesOf(db, pageIds)
 */
export async function readSeriesOf(
  db: Kysely<Database>,
  ids: readonly number[],
): Promise<{ seriesOf: Map<number, number>; series: Map<number, StoredSeries> }> {
  const repo = seriesRepository(db);
  const seriesOf = new Map<number, number>();
  for (const o of await repo.occurrencesOf(ids)) seriesOf.set(o.post_id, o.series_id);
  const candidates = [...new Set([...ids.filter((id) => !seriesOf.has(id)), ...seriesOf.values()])];
  const specs = await repo.findSpecs(candidates);
  for (const id of ids) if (!seriesOf.has(id) && specs.has(id)) seriesOf.set(id, id);
  const rows = new Map<number, SeriesOccurrence[]>([...specs.keys()].map((id) => [id, []]));
  for (const o of await repo.occurrencesOfSeries([...specs.keys()])) rows.get(o.series_id)?.push(o);
  const series = new Map<number, StoredSeries>();
  for (const [seriesId, spec] of specs) {
    const occurrences = rows.get(seriesId) ?? [];
    series.set(seriesId, { spec: withExclusions(spec, occurrences), occurrences });
  }
  // An occurrence whose series row is gone (it cannot be, but a feed must not fail on it) is shown as a plain event.
  for (const [id, s] of seriesOf) if (!series.has(s)) seriesOf.delete(id);
  return { seriesOf, series };
}
