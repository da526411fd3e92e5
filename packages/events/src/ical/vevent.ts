// One event as a VEVENT (RFC 5545 §3.6.1): times in the event's own zone (VTIMEZONE by TZID), all-day events as
// DATE values with an exclusive end, and the post's identity and revision.
import { dateOnly, escapeText, localDateTime, paramValue, utcDateTime } from './content-line.ts';
import type { FeedEvent } from './feed-event.ts';

export interface VeventContext {
  /** The site's host: `UID` is `{id}@{host}`, stable across edits. */
  readonly host: string;
  /** The TZID written for a zone, or undefined to write UTC (`…Z`) times. */
  readonly tzid: (zone: string) => string | undefined;
}

// SEQUENCE must grow with every significant edit; the post keeps no revision count, so it is the modification time
// in seconds since 2000 (monotonic, and within a signed 32-bit integer until 2068).
const SEQUENCE_EPOCH = Date.UTC(2000, 0, 1);
export const sequenceOf = (modifiedUtc: number): number =>
  Math.max(0, Math.floor((modifiedUtc - SEQUENCE_EPOCH) / 1000));

/** The day after a stored wall time's date, as a DATE: the exclusive end of an all-day event. */
function dayAfter(wall: string): string {
  const d = new Date(Date.UTC(Number(wall.slice(0, 4)), Number(wall.slice(5, 7)) - 1, Number(wall.slice(8, 10)) + 1));
  return `${String(d.getUTCFullYear()).padStart(4, '0')}${String(d.getUTCMonth() + 1).padStart(2, '0')}${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** `NAME;VALUE=DATE:…`, `NAME;TZID=…:…` or `NAME:…Z` for a time of `e` (its wall time and its instant). */
export function timeProperty(
  name: string,
  e: Pick<FeedEvent, 'allDay' | 'timezone'>,
  wall: string,
  utcMs: number,
  ctx: VeventContext,
): string {
  if (e.allDay) return `${name};VALUE=DATE:${dateOnly(wall)}`;
  const tzid = ctx.tzid(e.timezone);
  return tzid === undefined
    ? `${name}:${utcDateTime(utcMs)}`
    : `${name};TZID=${paramValue(tzid)}:${localDateTime(wall)}`;
}

/**
 * The VEVENT lines of `e`. `extra` goes after the times (RRULE, RDATE, EXDATE of a series; RECURRENCE-ID of an
 * override), and `uid` replaces the event's own (an override shares its series' UID).
 */
export function veventLines(
  e: FeedEvent,
  ctx: VeventContext,
  extra: readonly string[] = [],
  uid = `${e.id}@${ctx.host}`,
): string[] {
  const lines = [
    'BEGIN:VEVENT',
    `UID:${uid}`,
    `DTSTAMP:${utcDateTime(e.modifiedUtc)}`,
    timeProperty('DTSTART', e, e.startLocal, e.startUtc, ctx),
  ];
  if (e.allDay) {
    const end = dayAfter(e.endLocal);
    // A stored end before the start (the API keeps one) still gives a one-day event: DTEND must follow DTSTART.
    lines.push(`DTEND;VALUE=DATE:${end > dateOnly(e.startLocal) ? end : dayAfter(e.startLocal)}`);
  } else if (e.endUtc > e.startUtc) lines.push(timeProperty('DTEND', e, e.endLocal, e.endUtc, ctx));
  lines.push(...extra);
  lines.push(`SUMMARY:${escapeText(e.summary)}`);
  if (e.description !== '') lines.push(`DESCRIPTION:${escapeText(e.description)}`);
  if (e.url !== '') lines.push(`URL:${e.url}`);
  if (e.venue) {
    const where = [e.venue.name, e.venue.address].filter(Boolean).join(', ');
    lines.push(`LOCATION:${escapeText(where)}`);
    if (e.venue.lat !== undefined && e.venue.lng !== undefined) lines.push(`GEO:${e.venue.lat};${e.venue.lng}`);
  }
  if (e.organizer && e.organizer.email !== '') {
    lines.push(`ORGANIZER;CN=${paramValue(e.organizer.name)}:mailto:${e.organizer.email.replace(/[\s,;:]/g, '')}`);
  }
  if (e.categories.length > 0) lines.push(`CATEGORIES:${e.categories.map(escapeText).join(',')}`);
  if (e.createdUtc !== undefined) lines.push(`CREATED:${utcDateTime(e.createdUtc)}`);
  lines.push(
    `LAST-MODIFIED:${utcDateTime(e.modifiedUtc)}`,
    `SEQUENCE:${sequenceOf(e.modifiedUtc)}`,
    'STATUS:CONFIRMED',
    'END:VEVENT',
  );
  return lines;
}
