import { invalidParam } from '../http/errors.ts';
import { formatWall, readStoredWall, type Wall } from '../time/index.ts';
import { expandSeriesOffThread, type ExpandOptions } from './expand.ts';
import { RecurrenceError, type RecurrenceSpec } from './rule.ts';

/** What a write does to a series: the rule (null: none any more), the first event's start and zone, and its starts. */
export interface SeriesPlan {
  readonly spec: RecurrenceSpec | null;
  /** The first event's local start and zone the starts were expanded from. */
  readonly start: Wall;
  readonly zone: string;
  /** Local starts of the occurrences after the first event, sorted. */
  readonly starts: readonly Wall[];
}

/**
 * Expands the rule for the first event's start (as the write will store it); a series beyond the limits is a 400 on
 * `recurrence` here, before anything is written.
 * @example await planSeries(makeWall(2018, 3, 1, 18), 'America/New_York', parseRecurrence('FREQ=WEEKLY;COUNT=4'), { maxOccurrences: 730 })
 */
export async function planSeries(
  start: Wall,
  zone: string,
  spec: RecurrenceSpec | null,
  o: ExpandOptions,
): Promise<SeriesPlan> {
  if (spec === null) return { spec, start, zone, starts: [] };
  try {
    // Off the main thread with a time budget (expand.ts): a costly rule never stalls other requests.
    return { spec, start, zone, starts: (await expandSeriesOffThread({ start, zone, spec }, o)).slice(1) };
  } catch (err) {
    if (err instanceof RecurrenceError) throw invalidParam('recurrence', err.message);
    throw err;
  }
}

/** The first event and stored rule as a write's transaction sees them once it holds the series lock. */
export interface LockedSeries {
  readonly startLocal: string;
  readonly zone: string;
  readonly stored: RecurrenceSpec | undefined;
}

const sameSpec = (a: RecurrenceSpec | null | undefined, b: RecurrenceSpec | null | undefined) =>
  JSON.stringify(a) === JSON.stringify(b);

/**
 * The plan a write applies under the series lock. It was made before the transaction from what was read then; a write
 * committed in between (another rule, a moved start) makes it stale, and applying it would bring back what that write
 * changed, so it is made again from the locked state. A write that sent no rule carries the stored one, or none when
 * the series ended meanwhile (`undefined`: nothing to apply).
 */
export async function settlePlan(
  planned: SeriesPlan | undefined,
  sentRule: boolean,
  now: LockedSeries,
  o: ExpandOptions,
): Promise<SeriesPlan | undefined> {
  const spec = sentRule ? planned?.spec : now.stored;
  if (spec === undefined) return undefined;
  const start = readStoredWall(now.startLocal);
  if (start === undefined)
    throw invalidParam('start_date', 'The stored start_date is invalid: send start_date and end_date.');
  if (
    planned !== undefined &&
    sameSpec(planned.spec, spec) &&
    formatWall(planned.start) === formatWall(start) &&
    planned.zone === now.zone
  )
    return planned;
  return planSeries(start, now.zone, spec, o);
}
