import { describe, type TecKind } from './tec-error.ts';
import type { TecSkipped, TecUnlinked } from './tec-import.ts';
import type { TecEvent } from './tec-items.ts';

/** The written events naming a venue or organizer that was left out (skipped, so never written): written without it. */
export function skippedLinks(
  events: readonly TecEvent[],
  ids: Record<TecKind, Map<number, number>>,
  skipped: readonly TecSkipped[],
): TecUnlinked[] {
  const gone = new Map(skipped.map((x) => [`${x.kind} ${x.id}`, x] as const));
  return events.flatMap((e) => {
    if (!ids.events.has(e.id)) return [];
    const refs = [
      ...(e.venueId === undefined ? [] : [{ kind: 'venues' as const, id: e.venueId }]),
      ...e.organizerIds.map((id) => ({ kind: 'organizers' as const, id })),
    ];
    const missing = refs.flatMap(({ kind, id }) => {
      const x = gone.get(`${kind} ${id}`);
      return x === undefined || ids[kind].has(id) ? [] : [`${kind} ${id} (${x.slug})`];
    });
    return missing.length === 0
      ? []
      : [{ event: describe('events', e), reason: `written without ${missing.join(', ')}, which was skipped` }];
  });
}
