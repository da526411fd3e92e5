import type { Services } from '../services.ts';
import { formatTerm } from '../term/index.ts';
import { toCaller } from '../user/index.ts';
import type { EntityKind } from './event-types.ts';

/**
 * The `data` of a message: what the entity's `tribe/events/v1` GET returns to an administrator now, or `{id, type}`
 * when it is deleted (or gone since the message was written).
 */
export async function renderEntity(s: Services, kind: EntityKind, id: number, deleted: boolean): Promise<unknown> {
  const gone = { id, type: kind };
  if (deleted) return gone;
  switch (kind) {
    case 'event': {
      const row = await s.events.findById(id);
      const admin = await s.users.firstAdministrator();
      if (row === undefined) return gone;
      return JSON.parse((await s.events.present(row, admin ? toCaller(admin) : null)).text) as unknown;
    }
    case 'venue':
    case 'organizer': {
      const service = kind === 'venue' ? s.venues : s.organizers;
      const row = await service.get(id);
      return row === undefined ? gone : service.present(row, true);
    }
    case 'category':
    case 'tag': {
      const taxonomy = kind === 'category' ? 'tribe_events_cat' : 'post_tag';
      const t = await s.terms.get(taxonomy, id);
      // As the term's GET shows it to a manager of terms (with its `_links`).
      return t === undefined
        ? gone
        : formatTerm(s.site, t, { tree: await s.terms.tree(taxonomy), links: { canWrite: true } });
    }
  }
}
