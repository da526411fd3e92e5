// The tool calls made against the vendor's MCP server (0.1.6 lists three tools), in an order where later calls use
// what earlier ones created: venue and organizer, events at them, updates, reads, deletes.

export interface ToolResult {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

/** Ids created so far, by name (`venue`, `event`, …). */
export type Created = Record<string, number>;

export interface ToolCall {
  readonly tool: string;
  readonly label: string;
  /** Ids the arguments need; the call is reported failed without being made when one is missing. */
  readonly needs?: readonly string[];
  readonly args: (ids: Created) => Record<string, unknown>;
  /** Remembers the id the answer names under this key. */
  readonly creates?: string;
  /** The answer must be an error (a read after a permanent delete). */
  readonly expectError?: true;
  /** A problem with a successful answer, or undefined. */
  readonly check?: (text: string, ids: Created) => string | undefined;
}

export const CREATE_UPDATE = 'tec-calendar-create-update-entities';
export const READ = 'tec-calendar-read-entities';
export const DELETE = 'tec-calendar-delete-entities';

const mentions =
  (key: string, ...words: string[]) =>
  (text: string, ids: Created) => {
    const missing = [`"id": ${ids[key]}`, ...words].filter((w) => !text.includes(w));
    return missing.length > 0 ? `answer lacks ${missing.join(', ')}` : undefined;
  };

export const TOOL_CALLS: readonly ToolCall[] = [
  {
    tool: CREATE_UPDATE,
    label: 'create a venue',
    creates: 'venue',
    args: () => ({
      postType: 'venue',
      data: {
        title: 'MCP Run Hall',
        address: '1 Main Street',
        city: 'Springfield',
        country: 'United States',
        zip: '12345',
      },
    }),
  },
  {
    tool: CREATE_UPDATE,
    label: 'create an organizer',
    creates: 'organizer',
    args: () => ({
      postType: 'organizer',
      data: { title: 'MCP Run Collective', email: 'collective@example.org', phone: '+1 555 0100' },
    }),
  },
  {
    tool: CREATE_UPDATE,
    label: 'create an event at the venue with the organizer',
    creates: 'event',
    needs: ['venue', 'organizer'],
    args: (ids) => ({
      postType: 'event',
      data: {
        title: 'MCP Run Launch',
        status: 'publish',
        start_date: '2032-06-01 18:00:00',
        end_date: '2032-06-01 20:00:00',
        timezone: 'UTC',
        cost: '$10',
        venues: [ids.venue],
        organizers: [ids.organizer],
      },
    }),
  },
  {
    tool: CREATE_UPDATE,
    label: 'create an event with natural-language dates',
    creates: 'natural',
    args: () => ({
      postType: 'event',
      data: { title: 'MCP Run Natural Dates', start_date: 'next saturday 6:30pm', end_date: 'next saturday 8pm' },
    }),
  },
  {
    tool: CREATE_UPDATE,
    label: 'update the event (title and dates)',
    needs: ['event'],
    args: (ids) => ({
      postType: 'event',
      id: ids.event,
      data: { title: 'MCP Run Launch (moved)', start_date: '2032-06-02 18:00:00', end_date: '2032-06-02 20:00:00' },
    }),
    check: mentions('event', 'MCP Run Launch (moved)'),
  },
  {
    tool: CREATE_UPDATE,
    label: 'update the venue',
    needs: ['venue'],
    args: (ids) => ({ postType: 'venue', id: ids.venue, data: { city: 'Shelbyville' } }),
    check: mentions('venue', 'Shelbyville'),
  },
  {
    tool: CREATE_UPDATE,
    label: 'update the organizer',
    needs: ['organizer'],
    args: (ids) => ({ postType: 'organizer', id: ids.organizer, data: { phone: '+1 555 0199' } }),
    check: mentions('organizer', '0199'),
  },
  {
    tool: READ,
    label: 'read the event by id',
    needs: ['event'],
    args: (ids) => ({ postType: 'event', id: ids.event }),
    check: mentions('event', 'MCP Run Launch (moved)', '2032-06-02 18:00:00'),
  },
  {
    tool: READ,
    label: 'search events in a date window',
    needs: ['event'],
    args: () => ({
      postType: 'event',
      query: 'MCP Run',
      per_page: 10,
      eventFilters: { start_date: '2032-01-01', end_date: '2032-12-31' },
    }),
    check: mentions('event'),
  },
  {
    tool: READ,
    label: 'list events of the venue',
    needs: ['event', 'venue'],
    args: (ids) => ({ postType: 'event', eventFilters: { venue: ids.venue, start_date: '2032-01-01' } }),
    check: mentions('event'),
  },
  {
    tool: READ,
    label: 'read the venue by id',
    needs: ['venue'],
    args: (ids) => ({ postType: 'venue', id: ids.venue }),
    check: mentions('venue', 'MCP Run Hall'),
  },
  {
    tool: READ,
    label: 'search venues',
    needs: ['venue'],
    args: () => ({ postType: 'venue', query: 'MCP Run' }),
    check: mentions('venue'),
  },
  {
    tool: READ,
    label: 'read the organizer by id',
    needs: ['organizer'],
    args: (ids) => ({ postType: 'organizer', id: ids.organizer }),
    check: mentions('organizer', 'MCP Run Collective'),
  },
  {
    tool: READ,
    label: 'list organizers',
    needs: ['organizer'],
    args: () => ({ postType: 'organizer', per_page: 5 }),
    check: mentions('organizer'),
  },
  {
    tool: DELETE,
    label: 'trash the natural-dates event',
    needs: ['natural'],
    args: (ids) => ({ postType: 'event', id: ids.natural }),
  },
  {
    tool: DELETE,
    label: 'delete the event permanently',
    needs: ['event'],
    args: (ids) => ({ postType: 'event', id: ids.event, force: true }),
  },
  {
    tool: READ,
    label: 'read the deleted event (an error)',
    needs: ['event'],
    args: (ids) => ({ postType: 'event', id: ids.event }),
    expectError: true,
  },
  {
    tool: DELETE,
    label: 'delete the organizer permanently',
    needs: ['organizer'],
    args: (ids) => ({ postType: 'organizer', id: ids.organizer, force: true }),
  },
  {
    tool: DELETE,
    label: 'delete the venue permanently',
    needs: ['venue'],
    args: (ids) => ({ postType: 'venue', id: ids.venue, force: true }),
  },
];

/** The text of an answer's content parts, joined. */
export const resultText = (r: ToolResult): string => (r.content ?? []).map((c) => c.text ?? '').join('\n');

/** `Successfully created venue with ID: 12` → 12. */
export function createdId(text: string): number | undefined {
  const m = /with ID:?\s*(\d+)/i.exec(text);
  return m ? Number(m[1]) : undefined;
}
