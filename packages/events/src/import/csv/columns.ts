import { CsvImportError } from './import-error.ts';

export type CsvImportType = 'events' | 'venues' | 'organizers';
export const CSV_IMPORT_TYPES: readonly CsvImportType[] = ['events', 'venues', 'organizers'];

/**
 * The plugin's CSV columns per import type (its `Column_Mapper`: field key → label shown in Events → Import), plus
 * the spellings its knowledgebase examples use. A header matches a label or a key, ignoring case and spacing.
 */
const COLUMNS: Record<CsvImportType, Record<string, readonly string[]>> = {
  events: {
    event_name: ['Event Name'],
    event_description: ['Event Description'],
    event_excerpt: ['Event Excerpt'],
    event_start_date: ['Event Start Date'],
    event_start_time: ['Event Start Time'],
    event_end_date: ['Event End Date'],
    event_end_time: ['Event End Time'],
    event_timezone: ['Event Time Zone', 'Event Timezone', 'Timezone'],
    event_all_day: ['All Day Event', 'Event All Day'],
    event_hide: ['Hide Event From Event Listings'],
    event_sticky: ['Event Sticky in Month View'],
    feature_event: ['Feature Event'],
    event_venue_name: ['Event Venue Name'],
    event_organizer_name: ['Event Organizer Name(s) or ID(s)', 'Event Organizer Name'],
    event_show_map_link: ['Event Show Map Link'],
    event_show_map: ['Event Show Map'],
    event_cost: ['Event Cost'],
    event_currency_symbol: ['Event Currency Symbol'],
    event_currency_position: ['Event Currency Position'],
    event_category: ['Event Category', 'Event Categories'],
    event_tags: ['Event Tags'],
    event_website: ['Event Website'],
    featured_image: ['Event Featured Image'],
  },
  venues: {
    venue_name: ['Venue Name'],
    venue_description: ['Venue Description'],
    venue_country: ['Venue Country'],
    venue_address: ['Venue Address'],
    venue_address2: ['Venue Address 2'],
    venue_city: ['Venue City'],
    venue_state: ['Venue State/Province', 'Venue State', 'Venue Province'],
    venue_zip: ['Venue Zip'],
    venue_phone: ['Venue Phone'],
    venue_url: ['Venue Website'],
    featured_image: ['Venue Featured Image'],
  },
  organizers: {
    organizer_name: ['Organizer Name'],
    organizer_description: ['Organizer Description'],
    organizer_email: ['Organizer Email'],
    organizer_website: ['Organizer Website'],
    organizer_phone: ['Organizer Phone'],
    featured_image: ['Organizer Featured Image'],
  },
};

/** The column every row must fill: the post's name. */
export const NAME_FIELD: Record<CsvImportType, string> = {
  events: 'event_name',
  venues: 'venue_name',
  organizers: 'organizer_name',
};

const norm = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, ' ');

/** Field key of a label or key of `type`, or undefined. */
export function fieldOf(type: CsvImportType, name: string): string | undefined {
  const n = norm(name);
  for (const [key, labels] of Object.entries(COLUMNS[type])) {
    if (norm(key) === n || labels.some((l) => norm(l) === n)) return key;
  }
  return undefined;
}

/** The labels of a type's columns, for messages and the README. */
export const columnLabels = (type: CsvImportType): string[] => Object.values(COLUMNS[type]).map((l) => l[0]!);

/** Which field each column of the file fills (undefined: ignored), and the ignored column names. */
export interface ColumnPlan {
  readonly fields: ReadonlyArray<string | undefined>;
  readonly ignored: readonly string[];
}

/**
 * Matches the header to fields: `map` (file column → plugin label or key) first, then the plugin's names. Two
 * columns for one field, or a map naming a column the file lacks or a field the type lacks, refuse the file.
 * @example planColumns('events', ['Title', 'Event Start Date'], { Title: 'Event Name' })
 */
export function planColumns(
  type: CsvImportType,
  header: readonly string[],
  map: Readonly<Record<string, string>> = {},
): ColumnPlan {
  const byHeader = new Map<string, string>();
  for (const [column, target] of Object.entries(map)) {
    const field = fieldOf(type, target);
    if (field === undefined)
      throw new CsvImportError(
        'bad_option',
        `--map ${column}=${target}: ${type} have no column "${target}" (one of: ${columnLabels(type).join(', ')})`,
      );
    if (!header.some((h) => norm(h) === norm(column)))
      throw new CsvImportError('bad_option', `--map ${column}=${target}: the file has no column "${column}"`);
    byHeader.set(norm(column), field);
  }
  const fields = header.map((h) => byHeader.get(norm(h)) ?? fieldOf(type, h));
  const seen = new Map<string, string>();
  fields.forEach((f, i) => {
    if (f === undefined) return;
    const other = seen.get(f);
    if (other !== undefined)
      throw new CsvImportError('header', `columns "${other}" and "${header[i]}" both fill ${f}: map or remove one`);
    seen.set(f, header[i]!);
  });
  if (!fields.includes(NAME_FIELD[type])) {
    throw new CsvImportError(
      'header',
      `no "${COLUMNS[type][NAME_FIELD[type]]![0]}" column: the header is ${JSON.stringify(header)} (use --map COLUMN=FIELD)`,
    );
  }
  return { fields, ignored: header.filter((_, i) => fields[i] === undefined) };
}

/** A row as field → trimmed value; empty cells are left out, as the plugin treats them as not given. */
export function rowFields(plan: ColumnPlan, values: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  plan.fields.forEach((f, i) => {
    const v = values[i]?.trim() ?? '';
    if (f !== undefined && v !== '') out[f] = v;
  });
  return out;
}
