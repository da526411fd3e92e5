// The VCALENDAR around the events: one VTIMEZONE per zone the events use, covering the years they span.
import { escapeText, joinLines } from './content-line.ts';
import type { FeedEvent } from './feed-event.ts';
import { seriesLines, seriesSpan, type FeedSeries } from './series.ts';
import { veventLines, type VeventContext } from './vevent.ts';
import { vtimezoneLines, type Span } from './vtimezone.ts';

export interface CalendarOptions {
  /** Calendar name shown by subscribing clients (`X-WR-CALNAME`). */
  readonly name: string;
  /** The site's host, for UIDs. */
  readonly host: string;
  /** How often subscribers should re-poll (RFC 7986 `REFRESH-INTERVAL`), in minutes. */
  readonly refreshMinutes: number;
  /** Where an open-ended rule's VTIMEZONE coverage stops (UTC ms). */
  readonly horizonUtc?: number;
}

// Feed events are kept per cached list body (feed.pages.ts), so their folded VEVENT text can be kept with them.
const veventTexts = new WeakMap<FeedEvent, { host: string; text: string }>();
function veventText(e: FeedEvent, ctx: VeventContext): string {
  const known = veventTexts.get(e);
  if (known !== undefined && known.host === ctx.host) return known.text;
  const text = joinLines(veventLines(e, ctx));
  veventTexts.set(e, { host: ctx.host, text });
  return text;
}

const UTC_NAMES = new Set(['UTC', 'GMT', 'Etc/UTC', 'Etc/GMT', 'Z']);
const tzids = new Map<string, string | undefined>();

/** UTC is written as `…Z`; any other zone by its name as sent, in IANA case (`europe/paris` → `Europe/Paris`). */
export function tzidOf(zone: string): string | undefined {
  if (tzids.has(zone)) return tzids.get(zone);
  let id: string | undefined;
  // ICU resolves some zones to older aliases (`Asia/Kathmandu` → `Asia/Katmandu`): its name is used only to fix case.
  try {
    id = new Intl.DateTimeFormat('en-US', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    id = zone;
  }
  if (id.toLowerCase() !== zone.toLowerCase()) id = zone;
  if (UTC_NAMES.has(id) || UTC_NAMES.has(zone)) id = undefined;
  tzids.set(zone, id);
  return id;
}

/**
 * The iCalendar text of `events` (and recurring `series`), CRLF lines folded at 75 octets.
 * @example renderCalendar([event], [], { name: 'Events', host: 'example.org', refreshMinutes: 60 })
 */
export function renderCalendar(
  events: readonly FeedEvent[],
  series: readonly FeedSeries[],
  o: CalendarOptions,
): string {
  const ctx: VeventContext = { host: o.host, tzid: tzidOf };
  // Per TZID: the zone name to read offsets from and the instants its VTIMEZONE must resolve. A plain event needs
  // its start and end only (not the years between, which a long event would make thousands); a series its span.
  const spans = new Map<string, { zone: string; spans: Span[] }>();
  const cover = (e: FeedEvent, ...add: Span[]) => {
    const id = e.allDay ? undefined : tzidOf(e.timezone);
    if (id === undefined) return;
    const s = spans.get(id);
    if (s === undefined) spans.set(id, { zone: e.timezone, spans: add });
    else s.spans.push(...add);
  };
  const instants = (e: FeedEvent): Span[] => [
    { from: e.startUtc, to: e.startUtc },
    { from: e.endUtc, to: e.endUtc },
  ];
  for (const e of events) cover(e, ...instants(e));
  for (const s of series) {
    cover(s.first, seriesSpan(s, o.horizonUtc ?? s.first.endUtc));
    for (const ov of s.overrides) cover(ov.event, ...instants(ov.event));
  }
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//app-events//iCalendar feed//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
  ];
  lines.push(
    `X-WR-CALNAME:${escapeText(o.name)}`,
    `REFRESH-INTERVAL;VALUE=DURATION:PT${o.refreshMinutes}M`,
    `X-PUBLISHED-TTL:PT${o.refreshMinutes}M`,
  );
  for (const [id, s] of [...spans].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    lines.push(...vtimezoneLines(s.zone, id, s.spans));
  let out = joinLines(lines);
  for (const e of events) out += veventText(e, ctx);
  return out + joinLines([...series.flatMap((s) => seriesLines(s, ctx)), 'END:VCALENDAR']);
}
