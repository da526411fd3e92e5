// The feed URLs: `{site}/events/?ical=1` (the plugin's export), `{rest}/events.ics` (the same, under the namespace,
// not listed in its index so the plugin's discovery answers stay as they are) and `{site}/event/{slug}/?ical=1`.
import { checkArgs, type ArgSet } from '../http/args.ts';
import { noRoute } from '../http/errors.ts';
import type { Reply } from '../http/route.ts';
import { TextBody } from '../http/text-body.ts';
import { blankEventBody, eventListFilter, type EventListParams, type EventService } from '../event/index.ts';
import { canRead, isProtected, NAMESPACE, type Site, type Visibility } from '../post/index.ts';
import type { TermService } from '../term/index.ts';
import { renderCalendar } from './calendar.ts';
import { feedEventFromBody, type FeedEvent } from './feed-event.ts';
import { editedIds, feedSeriesOf } from './feed-series.ts';
import type { FeedSeries } from './series.ts';

export interface FeedDeps {
  readonly events: EventService;
  readonly terms: TermService;
  readonly site: Site;
  /** The list route's argument declarations: feeds accept and check the same filters. */
  readonly listArgs: ArgSet;
  /** The most events one feed holds (its `per_page` default and ceiling). */
  readonly maxEvents: number;
  /** `REFRESH-INTERVAL` advertised to subscribers, in minutes. */
  readonly refreshMinutes: number;
}

export const CALENDAR_CONTENT_TYPE = 'text/calendar; charset=utf-8';
export const REST_FEED_PATH = `/wp-json/${NAMESPACE}/events.ics`;
const RESERVED = new Set(['_method', '_envelope', '_jsonp', '_fields', 'rest_route', 'ical']);

/** Read events kept for the next feed (each holds its list body, about 4 KB, alive): about 20 MB at most. */
const FEED_MEMO_MAX = 5000;

interface Grouped {
  readonly plain: FeedEvent[];
  readonly series: FeedSeries[];
}
/** What an anonymous reader may list (post/listing.ts): feeds are fetched without credentials. */
const ANONYMOUS: Visibility = { statuses: ['publish'] };

type Page = (query: Record<string, unknown>, now: number) => Promise<Reply>;

/** The page serving `path` (decoded, no trailing slash), or undefined when it is not a feed URL. */
export function feedPages(deps: FeedDeps): (path: string) => Page | undefined {
  const { site, events } = deps;
  const host = new URL(site.home).hostname;
  const calendar = ({ plain, series }: Grouped, filename: string): Reply => ({
    body: new TextBody(
      renderCalendar(plain, series, { name: site.siteName, host, refreshMinutes: deps.refreshMinutes }),
      CALENDAR_CONTENT_TYPE,
    ),
    headers: { 'Content-Disposition': `attachment; filename="${filename}"` },
  });
  // The event service hands out the same list-body string until the event changes: its FeedEvent is read once.
  const read = new Map<string, FeedEvent | undefined>();
  const parsed = (texts: readonly string[]) =>
    texts
      .map((t) => {
        if (read.has(t)) return read.get(t);
        if (read.size >= FEED_MEMO_MAX) read.clear();
        const e = feedEventFromBody(JSON.parse(t) as Record<string, unknown>);
        read.set(t, e);
        return e;
      })
      .filter((e): e is FeedEvent => e !== undefined);

  /**
   * Events that belong to a series are exported as their whole series (one VEVENT with the rule, overrides with
   * RECURRENCE-ID), once however many of its occurrences matched; the rest as they are. A series whose first event
   * the reader may not list is left as its matching occurrences. Three queries for the page's series, a fourth for
   * first events and edited occurrences the page does not hold.
   */
  const grouped = async (shown: FeedEvent[], visibility: Visibility): Promise<Grouped> => {
    if (shown.length === 0) return { plain: shown, series: [] };
    const { seriesOf, series } = await events.readSeriesOf(shown.map((e) => e.id));
    if (series.size === 0) return { plain: shown, series: [] };
    const listable = (status: string) => visibility.statuses.includes(status);
    const byId = new Map(shown.map((e) => [e.id, e]));
    const wanted = new Set<number>();
    for (const [firstId, s] of series)
      for (const id of [firstId, ...editedIds(s, listable)]) if (!byId.has(id)) wanted.add(id);
    if (wanted.size > 0) {
      for (const e of parsed(
        await events.listAnonymous({ visibility, include: [...wanted], limit: wanted.size, offset: 0 }),
      ))
        byId.set(e.id, e);
    }
    const exported = new Set<number>();
    const out: FeedSeries[] = [];
    for (const [firstId, s] of series) {
      const first = byId.get(firstId);
      if (first === undefined) continue;
      out.push(feedSeriesOf(s, first, byId, listable));
      exported.add(firstId);
    }
    out.sort((a, b) => a.first.startUtc - b.first.startUtc || a.first.id - b.first.id);
    return { plain: shown.filter((e) => !exported.has(seriesOf.get(e.id) ?? 0)), series: out };
  };

  /** The list route's events for an anonymous reader: feeds are subscription URLs, fetched without credentials. */
  const list: Page = async (query, now) => {
    const raw = Object.fromEntries(Object.entries(query).filter(([k]) => !RESERVED.has(k)));
    const p = await checkArgs<EventListParams>(deps.listArgs, raw, null);
    // The list's declared default (10) is not the feed's: without `per_page` a feed holds all it may.
    const perPage =
      raw.per_page === undefined ? deps.maxEvents : Math.min(p.per_page ?? deps.maxEvents, deps.maxEvents);
    const { filter } = await eventListFilter(deps, null, now, p);
    const items = await events.listAnonymous({ ...filter, limit: perPage, offset: (p.page - 1) * perPage });
    return calendar(await grouped(parsed(items), filter.visibility), 'events.ics');
  };

  const single =
    (slug: string): Page =>
    async () => {
      const row = await events.findBySlug(slug);
      if (row === undefined || row.status === 'trash' || !canRead(null, row)) throw noRoute();
      const body = (await events.present(row, null)).value() as Record<string, unknown>;
      const shown = feedEventFromBody(isProtected(row) ? blankEventBody(body) : body);
      // An occurrence's page exports its whole series, under the series' UID: adding it from any date's page gives
      // the calendar the same one recurring event (README, "iCalendar feeds").
      const g = shown ? await grouped([shown], ANONYMOUS) : { plain: [], series: [] };
      return calendar(g, `${row.slug}.ics`);
    };

  return (path) => {
    const lower = path.toLowerCase();
    if (lower === REST_FEED_PATH) return list;
    if (lower === '/events') return ical(list);
    const m = /^\/event\/([^/]+)$/i.exec(path);
    return m ? ical(single(m[1]!)) : undefined;
  };
}

/** The site pages answer only their `?ical=1` export here (there are no HTML pages): anything else is a 404. */
const ical =
  (page: Page): Page =>
  async (query, now) => {
    if (query.ical === undefined) throw noRoute();
    return page(query, now);
  };
