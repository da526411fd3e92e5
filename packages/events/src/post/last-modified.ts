// `Last-Modified` of an item: its own `modified_gmt`, and for an event also that of the venue and organizers shown
// inside it (a venue rename changes the event's answer without touching the event's post).
import type { JsonText } from '../http/json-text.ts';

const STORED_UTC = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A stored UTC date-time (`2026-03-01 09:00:00`) as epoch ms; undefined for `0000-00-00 00:00:00` or a broken value. */
export function storedUtcMs(text: unknown): number | undefined {
  if (typeof text !== 'string' || !STORED_UTC.test(text) || text.startsWith('0000')) return undefined;
  const ms = Date.parse(`${text.replace(' ', 'T')}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

const memo = new WeakMap<JsonText, number | null>();

/** The latest `modified_utc` in an event body (the event, its venue, its organizers); bodies are read once. */
export function eventLastModified(body: JsonText): number | undefined {
  const known = memo.get(body);
  if (known !== undefined) return known ?? undefined;
  const e = body.value() as { modified_utc?: unknown; venue?: unknown; organizer?: unknown };
  const linked = [e.venue, ...(Array.isArray(e.organizer) ? e.organizer : [])] as Array<
    { modified_utc?: unknown } | undefined
  >;
  const times = [e.modified_utc, ...linked.map((l) => l?.modified_utc)]
    .map(storedUtcMs)
    .filter((t): t is number => t !== undefined);
  const latest = times.length > 0 ? Math.max(...times) : undefined;
  memo.set(body, latest ?? null);
  return latest;
}
