import type { CsvImportType } from './columns.ts';
import { csvDate, csvTime } from './csv-dates.ts';

/** A row turned into the parameters of the REST create it stands for, and its re-import key. */
export interface RowWrite {
  readonly params: Record<string, unknown>;
  readonly key: ImportKey;
}
/** What makes a row the same as one imported before: the name (any case) and, for events, the local start. */
export interface ImportKey {
  readonly name: string;
  readonly start?: string;
}

/** A row the CSV rules refuse before the REST rules see it (a date in no accepted shape). */
export class RowRefused extends Error {}

/** The plugin's CSV booleans (`yes`, `true`, `1`) and their opposites; any other text goes to the REST rule as sent. */
function flag(v: string | undefined): string | undefined {
  if (v === undefined) return undefined;
  const s = v.toLowerCase();
  if (['yes', 'y', 'true', '1'].includes(s)) return 'true';
  if (['no', 'n', 'false', '0'].includes(s)) return 'false';
  return v;
}

const list = (v: string | undefined): string[] | undefined =>
  v === undefined
    ? undefined
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);

function dateOf(f: Record<string, string>, column: string, label: string): string | undefined {
  const v = f[column];
  if (v === undefined) return undefined;
  // A date and time in one cell ("2025-07-04 19:30") is split at its first space.
  const [day, ...time] = v.split(/\s+/);
  const date = csvDate(day!);
  if (date === undefined) throw new RowRefused(`${label} "${v}" is not a date (use YYYY-MM-DD, m/d/Y or d-m-Y)`);
  return time.length > 0 ? `${date} ${timeOf(time.join(' '), label)}` : date;
}

function timeOf(v: string, label: string): string {
  const t = csvTime(v);
  if (t === undefined) throw new RowRefused(`${label} "${v}" is not a time of day (use HH:MM or h:mm am/pm)`);
  return t;
}

/**
 * Drops parameters the row left empty, so the REST rules see exactly what a client would have sent. Imported posts
 * are published, the plugin importer's default status (a REST create's default would be a draft).
 */
const given = (o: Record<string, unknown>) => ({
  status: 'publish',
  ...Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)),
});

/**
 * An events row as a `POST /events` body: dates joined with their times (the end defaults to the start, as in the
 * plugin's importer), venue and organizers by name (created or reused by the REST rules) or id, categories and tags
 * by name, the featured image by URL or id. Key: name and start.
 */
function eventParams(f: Record<string, string>): RowWrite {
  const startDay = dateOf(f, 'event_start_date', 'Event Start Date');
  const allDay = flag(f.event_all_day);
  const at = (day: string | undefined, timeCol: string, label: string, fallback: string) =>
    day === undefined
      ? undefined
      : day.includes(' ')
        ? day
        : `${day} ${f[timeCol] === undefined ? fallback : timeOf(f[timeCol], label)}`;
  const start = at(startDay, 'event_start_time', 'Event Start Time', '00:00:00');
  const startTime = start?.slice(11);
  const endDay = dateOf(f, 'event_end_date', 'Event End Date') ?? startDay;
  const end = at(endDay, 'event_end_time', 'Event End Time', startTime ?? '00:00:00');
  const symbol = f.event_currency_symbol;
  const cost =
    f.event_cost === undefined || symbol === undefined
      ? f.event_cost
      : /suffix|after/i.test(f.event_currency_position ?? '')
        ? `${f.event_cost}${symbol}`
        : `${symbol}${f.event_cost}`;
  const venue = f.event_venue_name;
  const organizers = list(f.event_organizer_name);
  const params = given({
    title: f.event_name,
    description: f.event_description,
    excerpt: f.event_excerpt,
    start_date: start,
    end_date: end,
    timezone: f.event_timezone,
    all_day: allDay,
    hide_from_listings: flag(f.event_hide),
    sticky: flag(f.event_sticky),
    featured: flag(f.feature_event),
    show_map: flag(f.event_show_map),
    show_map_link: flag(f.event_show_map_link),
    cost,
    website: f.event_website,
    image: f.featured_image,
    categories: list(f.event_category),
    tags: list(f.event_tags),
    venue: venue === undefined ? undefined : /^\d+$/.test(venue) ? venue : { venue },
    organizer: organizers?.map((o) => (/^\d+$/.test(o) ? o : { organizer: o })),
  });
  // All-day events start at midnight whatever time the row gives (the REST write widens them the same way).
  const keyStart = start === undefined ? '' : allDay === 'true' ? `${start.slice(0, 10)} 00:00:00` : start;
  return { params, key: { name: f.event_name ?? '', start: keyStart } };
}

/** A venues row as a `POST /venues` body; the state goes to `state` in the United States and to `province` elsewhere. */
function venueParams(f: Record<string, string>): RowWrite {
  const us = f.venue_country === undefined || /^(us|usa|united states)$/i.test(f.venue_country);
  const address = [f.venue_address, f.venue_address2].filter((s) => s !== undefined).join(', ') || undefined;
  return {
    params: given({
      venue: f.venue_name,
      description: f.venue_description,
      country: f.venue_country,
      address,
      city: f.venue_city,
      [us ? 'state' : 'province']: f.venue_state,
      zip: f.venue_zip,
      phone: f.venue_phone,
      website: f.venue_url,
      image: f.featured_image,
    }),
    key: { name: f.venue_name ?? '' },
  };
}

function organizerParams(f: Record<string, string>): RowWrite {
  return {
    params: given({
      organizer: f.organizer_name,
      description: f.organizer_description,
      email: f.organizer_email,
      website: f.organizer_website,
      phone: f.organizer_phone,
      image: f.featured_image,
    }),
    key: { name: f.organizer_name ?? '' },
  };
}

/** The REST create parameters and re-import key of one row; throws RowRefused for a date or time in no accepted shape. */
export function rowParams(type: CsvImportType, fields: Record<string, string>): RowWrite {
  switch (type) {
    case 'events':
      return eventParams(fields);
    case 'venues':
      return venueParams(fields);
    case 'organizers':
      return organizerParams(fields);
  }
}
