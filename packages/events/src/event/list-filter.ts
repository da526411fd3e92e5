// The list route's filters (dates, categories, tags, venue, organizer, featured, search, geo) turned into a
// repository filter: shared by `GET /events` and the iCalendar feeds, so both select the same events.
import type { Caller } from '../http/route.ts';
import { invalidParam } from '../http/errors.ts';
import { isIdText, toRowId } from '../http/row-id.ts';
import { isTruthy, listVisibility, type Site } from '../post/index.ts';
import type { TermService } from '../term/index.ts';
import type { EventListParams } from './event.args.ts';
import type { EventListFilter } from './event.repository.ts';
import { computeWindow } from './window.ts';

/** The categories and every category under them. */
function withDescendants(ids: number[], tree: ReadonlyMap<number, { parent: number }>): number[] {
  const out = new Set(ids);
  for (let grew = true; grew;) {
    grew = false;
    for (const [id, t] of tree)
      if (!out.has(id) && out.has(t.parent)) {
        out.add(id);
        grew = true;
      }
  }
  return [...out];
}

export interface ListFilterDeps {
  terms: TermService;
  site: Site;
}

/**
 * The filter of a validated list request as `caller` may see it (paging left to the caller), with the date window
 * and whether it is strict (the list echoes both).
 */
export async function eventListFilter(deps: ListFilterDeps, caller: Caller | null, now: number, p: EventListParams) {
  const { site } = deps;
  const visibility = listVisibility(caller, p.status);
  if ((p.geoloc_lat === undefined) !== (p.geoloc_lng === undefined))
    throw invalidParam(p.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng');
  const strict = p.strict_dates !== undefined && isTruthy(p.strict_dates);
  const window = computeWindow({ ...p, strict, include: p.include !== undefined }, site.timezone, now);
  // Categories as a tax query by id with their descendants (WordPress's include_children); tags as the `tag` query
  // var, which reads every value as a slug, so a numeric value matches only a tag with that slug.
  const categoryIds = async (refs: (string | number)[] | undefined) => {
    if (refs === undefined) return undefined;
    const ids: number[] = [];
    for (const ref of refs) {
      const s = String(ref);
      ids.push(isIdText(s) ? toRowId(s)! : (await deps.terms.findRef('tribe_events_cat', s))!.id);
    }
    return withDescendants(ids, await deps.terms.tree('tribe_events_cat'));
  };
  const tagIds = async (refs: (string | number)[] | undefined) => {
    if (refs === undefined) return undefined;
    const bySlug = new Map([...(await deps.terms.tree('post_tag'))].map(([id, t]) => [t.slug, id]));
    return refs.map((ref) => bySlug.get(String(ref))).filter((id): id is number => id !== undefined);
  };
  const geo =
    p.geoloc || p.geoloc_lat !== undefined
      ? { lat: p.geoloc_lat, lng: p.geoloc_lng, radiusKm: site.geolocRadiusKm }
      : undefined;
  const filter: Omit<EventListFilter, 'limit' | 'offset'> = {
    visibility,
    ...window,
    words: p.search?.split(/\s+/).filter(Boolean),
    categoryIds: await categoryIds(p.categories),
    tagIds: await tagIds(p.tags),
    venueIds: p.venue,
    organizerIds: p.organizer,
    featured: p.featured,
    parentId: p.post_parent,
    include: p.include,
    geo,
  };
  return { filter, window, strict };
}
