// What a VEVENT is made of, read from the event body the list route answers (so a feed shows exactly what the API
// shows to the same reader: blanked protected events, hidden linked posts, rendered texts).
import { decodeHTML } from 'entities';
import { storedUtcMs } from '../post/index.ts';

export interface FeedVenue {
  readonly name: string;
  readonly address: string;
  readonly lat?: number;
  readonly lng?: number;
}

/** An event as the feed needs it: wall times in `timezone`, UTC instants, texts as plain text. */
export interface FeedEvent {
  readonly id: number;
  readonly url: string;
  readonly summary: string;
  readonly description: string;
  readonly allDay: boolean;
  /** Local wall times `YYYY-MM-DD HH:MM:SS` in `timezone`, as the API's `start_date` / `end_date`. */
  readonly startLocal: string;
  readonly endLocal: string;
  readonly startUtc: number;
  readonly endUtc: number;
  readonly timezone: string;
  readonly createdUtc?: number;
  readonly modifiedUtc: number;
  readonly venue?: FeedVenue;
  readonly organizer?: { readonly name: string; readonly email: string };
  readonly categories: readonly string[];
}

const BLOCK_END = /<\/(p|div|li|h[1-6]|blockquote|pre|tr)>|<br\s*\/?>/gi;

/** Rendered HTML as plain text: block ends and `<br>` become line breaks, tags go, entities are decoded. */
export function htmlToText(html: string): string {
  const text = decodeHTML(html.replace(BLOCK_END, '\n').replace(/<[^>]*>/g, ''));
  return text
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

type Body = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number | undefined =>
  typeof v === 'number' ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined;

function venueOf(v: unknown): FeedVenue | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const b = v as Body;
  const name = htmlToText(str(b.venue));
  const region = [str(b.stateprovince) || str(b.state) || str(b.province), str(b.zip)].filter(Boolean).join(' ');
  const address = [str(b.address), str(b.city), region, str(b.country)].map(htmlToText).filter(Boolean).join(', ');
  const lat = num(b.geo_lat);
  const lng = num(b.geo_lng);
  if (name === '' && address === '') return undefined;
  return { name, address, ...(lat !== undefined && lng !== undefined ? { lat, lng } : {}) };
}

/**
 * The feed's view of an event body; undefined when its dates cannot be shown (a broken stored row shows them as "").
 * @example feedEventFromBody(JSON.parse(listItemText))
 */
export function feedEventFromBody(b: Body): FeedEvent | undefined {
  const startUtc = storedUtcMs(b.utc_start_date);
  const endUtc = storedUtcMs(b.utc_end_date);
  const modifiedUtc = storedUtcMs(b.modified_utc) ?? storedUtcMs(b.date_utc);
  const startLocal = str(b.start_date);
  const endLocal = str(b.end_date);
  if (
    startUtc === undefined ||
    endUtc === undefined ||
    modifiedUtc === undefined ||
    startLocal === '' ||
    endLocal === '' ||
    typeof b.id !== 'number'
  )
    return undefined;
  const orgs = Array.isArray(b.organizer) ? (b.organizer as Body[]) : [];
  const first = orgs[0];
  const categories = Array.isArray(b.categories)
    ? (b.categories as Body[]).map((c) => htmlToText(str(c.name))).filter(Boolean)
    : [];
  const venue = venueOf(b.venue);
  const createdUtc = storedUtcMs(b.date_utc);
  return {
    id: b.id,
    url: str(b.url),
    summary: htmlToText(str(b.title)),
    description: htmlToText(str(b.description)),
    allDay: b.all_day === true,
    startLocal,
    endLocal,
    startUtc,
    endUtc,
    timezone: str(b.timezone) || 'UTC',
    modifiedUtc,
    categories,
    ...(createdUtc !== undefined ? { createdUtc } : {}),
    ...(venue ? { venue } : {}),
    ...(first
      ? { organizer: { name: htmlToText(str(first.organizer)), email: decodeHTML(str(first.email)).trim() } }
      : {}),
  };
}
