import type { EventService } from '../../event/index.ts';

type Params = Record<string, unknown>;

/** The name of inline data that is only a name (`{venue: "Park"}`, as rows give them), else undefined. */
function nameOnly(ref: unknown, field: 'venue' | 'organizer'): string | undefined {
  if (ref === null || typeof ref !== 'object' || Array.isArray(ref)) return undefined;
  const keys = Object.keys(ref);
  const name = (ref as Params)[field];
  return keys.length === 1 && typeof name === 'string' ? name : undefined;
}

/**
 * Venue and organizer ids that the event writer resolved for names earlier in one import. A later row naming the
 * same venue exactly would be de-duplicated to that same post (the rule finds the oldest post of that name, and
 * this import's rows send nothing else), so it links the id instead: one lookup and one detail rewrite less per
 * row. Names are kept as written (not case-folded), so the rule decides every spelling once.
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
