/** What a webhook message is about; entity kinds as the event types name them. */
export const ENTITY_KINDS = ['event', 'venue', 'organizer', 'category', 'tag'] as const;
export const ACTIONS = ['created', 'updated', 'deleted', 'published'] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

/** Every event type a subscription may ask for (`published` is for events, venues and organizers: terms have none). */
export const WEBHOOK_EVENT_TYPES: readonly string[] = ENTITY_KINDS.flatMap((k) =>
  ACTIONS.filter((a) => a !== 'published' || !['category', 'tag'].includes(k)).map((a) => `${k}.${a}`),
);

/** The stored form the outbox triggers match with LIKE (migration 017): `,event.created,tag.deleted,`. */
export const storedEventTypes = (types: readonly string[]): string => `,${[...new Set(types)].join(',')},`;
export const eventTypesOf = (stored: string): string[] => stored.split(',').filter((t) => t !== '');
