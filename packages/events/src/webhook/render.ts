import type { Services } from '../services.ts';
import { formatTerm } from '../term/index.ts';
import { toCaller } from '../user/index.ts';
import type { EntityKind } from './event-types.ts';

type EventRow = NonNullable<Awaited<ReturnType<Services['events']['findById']>>>;

/** One message's entity, to render as its `data`. */
export interface RenderItem {
  readonly kind: EntityKind;
  readonly id: number;
  readonly deleted: boolean;
}

/**
 * The `data` of each message, as JSON text: what the entity's `tribe/events/v1` GET returns to an administrator now,
 * or `{id, type}` when it is deleted (or gone since the message was written). A batch's events are built together,
 * in the queries of one page rather than five or six per event (most messages are events').
 * @example const [data] = await renderEntities(services, [{ kind: 'event', id: 7, deleted: false }])
 */
export async function renderEntities(s: Services, items: readonly RenderItem[]): Promise<string[]> {
  const out = new Array<string>(items.length);
  const eventIds = items.flatMap((item) => (item.kind === 'event' && !item.deleted ? [item.id] : []));
  const rows = await s.events.findByIds(eventIds);
  const events: { at: number; row: EventRow }[] = [];
  await Promise.all(
    items.map(async (item, at) => {
      const row = item.kind === 'event' && !item.deleted ? rows.get(item.id) : undefined;
      if (row !== undefined) events.push({ at, row });
      else if (item.deleted || item.kind === 'event') out[at] = JSON.stringify(gone(item));
      else out[at] = JSON.stringify((await renderOther(s, item.kind, item.id)) ?? gone(item));
    }),
  );
  if (events.length > 0) {
    const admin = await s.users.firstAdministrator();
    const texts = await s.events.presentMany(
      events.map((e) => e.row),
      admin ? toCaller(admin) : null,
    );
    events.forEach((e, i) => (out[e.at] = texts[i]!.text));
  }
  return out;
}

const gone = (item: RenderItem) => ({ id: item.id, type: item.kind });

/** A venue, organizer, category or tag as its GET shows it; undefined when it is gone. */
async function renderOther(s: Services, kind: Exclude<EntityKind, 'event'>, id: number): Promise<unknown> {
  switch (kind) {
    case 'venue':
    case 'organizer': {
      const service = kind === 'venue' ? s.venues : s.organizers;
      const row = await service.get(id);
      return row === undefined ? undefined : service.present(row, true);
    }
    case 'category':
    case 'tag': {
      const taxonomy = kind === 'category' ? 'tribe_events_cat' : 'post_tag';
      const t = await s.terms.get(taxonomy, id);
      // As the term's GET shows it to a manager of terms (with its `_links`).
      return t === undefined
        ? undefined
        : formatTerm(s.site, t, { tree: await s.terms.tree(taxonomy), links: { canWrite: true } });
    }
  }
}
