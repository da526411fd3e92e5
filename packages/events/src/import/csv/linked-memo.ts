import type { EventService } from '../../event/index.ts';

type Params = Record<string, unknown>;

/**
 * The memo key of inline data (`{venue: "Park"}` as CSV rows give them, `{venue, address, geo_lat, geo_lng}` from an
 * iCalendar LOCATION): its JSON, so only the very same data reuses an id; undefined for an id or anything else.
 */
function nameOnly(ref: unknown, field: 'venue' | 'organizer'): string | undefined {
  if (ref === null || typeof ref !== 'object' || Array.isArray(ref)) return undefined;
  return typeof (ref as Params)[field] === 'string' ? JSON.stringify(ref) : undefined;
}

/**
 * Venue and organizer ids that the event writer resolved for inline data earlier in one import. A later row sending
 * the same data exactly would be de-duplicated to that same post (the rule finds the oldest post of that name, and
 * this import sends nothing else), so it links the id instead: one lookup and one detail rewrite less per row.
 * Data is kept as written (not case-folded), so the rule decides every spelling once.
 */
export function linkedMemo(events: EventService) {
  const venues = new Map<string, number>();
  const organizers = new Map<string, number>();
  return {
    /** The params with every name resolved before replaced by its id; `pending` when a name is still unknown. */
    apply(p: Params): { params: Params; pending: boolean } {
      let pending = false;
      const out: Params = { ...p };
      const venue = nameOnly(p.venue, 'venue');
      if (venue !== undefined) {
        const id = venues.get(venue);
        if (id === undefined) pending = true;
        else out.venue = id;
      }
      if (Array.isArray(p.organizer)) {
        out.organizer = p.organizer.map((ref: unknown) => {
          const name = nameOnly(ref, 'organizer');
          if (name === undefined) return ref;
          const id = organizers.get(name);
          if (id === undefined) pending = true;
          return id ?? ref;
        });
      }
      return { params: out, pending };
    },
    /** Learns the ids the write of event `id` linked for the names in `p` (read back: two queries). */
    async learn(id: number, p: Params): Promise<void> {
      const venue = nameOnly(p.venue, 'venue');
      if (venue !== undefined) {
        const row = await events.findById(id);
        if (typeof row?.venue_id === 'number') venues.set(venue, row.venue_id);
      }
      if (!Array.isArray(p.organizer) || !p.organizer.some((ref) => nameOnly(ref, 'organizer') !== undefined)) return;
      const linked = (await events.organizersOf([id])).get(id) ?? [];
      // The writer drops repeated organizers, which shifts positions: learn only when they line up.
      if (linked.length !== p.organizer.length) return;
      p.organizer.forEach((ref: unknown, i) => {
        const name = nameOnly(ref, 'organizer');
        if (name !== undefined) organizers.set(name, linked[i]!);
      });
    },
  };
}
