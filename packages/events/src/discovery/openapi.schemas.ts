// The component schemas of `/doc` as TEC 6.17.2's documentation definition providers declare them: hand-written
// text in the plugin, not derived from its routes, so kept here as data (their quirks included: `urls` and `sizes` are
// declared arrays, the date details and cost details arrays of one object, and `currency_position ` ends in a space).

/** One property: its type and the plugin's description, then any other keyword (`format`, `items`, `enum`, `$ref`). */
const prop = (type: string | undefined, description: string, extra: Record<string, unknown> = {}) => ({
  ...(type === undefined ? {} : { type }),
  description,
  ...extra,
});

/** The fields every post answer starts with; the venue's lineage text names an organizer, as in the plugin. */
const postHead = (noun: string, lineageNoun: string) => ({
  id: prop('integer', `The ${noun} WordPress post ID`),
  global_id: prop('string', `The ${noun} ID used to globally identify in Event Aggregator`),
  global_id_lineage: prop(
    'array',
    `An Array containing the lineage of where this ${lineageNoun} comes from, this should not change after the ${lineageNoun} is created.`,
    { items: { type: 'string' } },
  ),
  author: prop('integer', `The ${noun} author WordPress post ID`),
  date: prop('string', `The ${noun} creation date in the site time zone`),
  date_utc: prop('string', `The ${noun} creation date in UTC time`),
  modified: prop('string', `The ${noun} last modification date in the site time zone`),
  modified_utc: prop('string', `The ${noun} last modification date in UTC time`),
  status: prop('string', `The ${noun} status`),
  url: prop('string', `The URL to the ${noun} page`),
});

/** A venue's or organizer's name, texts and image (whose text speaks of an event in both). */
const linkedHead = (noun: 'venue' | 'organizer') => ({
  [noun]: prop('string', `The ${noun} name`),
  description: prop('string', `The ${noun} long description`),
  excerpt: prop('string', `The ${noun} short description`),
  slug: prop('string', `The ${noun} slug`),
  image: prop('string', 'The event featured image details if set', { $ref: '#/components/schemas/Image' }),
});

/** Places the event's fields of their own (event/fields.ts, passed in by the app) among the Event properties. */
export type EventPropertiesOf = (base: Record<string, unknown>) => Record<string, unknown>;

export const openApiSchemas = (eventProperties: EventPropertiesOf) => ({
  ...OPENAPI_SCHEMAS,
  Event: { ...OPENAPI_SCHEMAS.Event, properties: eventProperties(OPENAPI_SCHEMAS.Event.properties) },
});

const OPENAPI_SCHEMAS = {
  ImageSize: {
    type: 'object',
    properties: {
      width: prop('integer', 'The image width in pixels in the specified size'),
      height: prop('integer', 'The image height in pixels in the specified size'),
      'mime-type': prop('string', 'The image mime-type'),
      url: prop('string', 'The link to the image in the specified size on the site', { format: 'uri' }),
    },
  },
  CostDetails: {
    type: 'object',
    properties: {
      currency_symbol: prop('string', 'The cost currency symbol'),
      'currency_position ': prop('string', 'The position of the currency symbol in the cost string', {
        enum: ['prefix', 'postfix'],
      }),
      values: prop('array', 'A sorted array of all the numeric values for the cost', { items: { type: 'integer' } }),
    },
  },
  Term: {
    type: 'object',
    properties: {
      id: prop('integer', 'The WordPress term ID'),
      name: prop('string', 'The term name'),
      slug: prop('string', 'The term slug'),
      taxonomy: prop('string', 'The taxonomy the term belongs to'),
      description: prop('string', 'The term description'),
      parent: prop('integer', 'The term parent term if any'),
      count: prop('integer', 'The number of posts associated with the term'),
      url: prop('string', 'The URL to the term archive page'),
      urls: prop('array', 'A list of links to the term own, archive and parent REST URL', {
        items: { type: 'string' },
      }),
    },
  },
  Image: {
    type: 'object',
    properties: {
      url: prop('string', 'The URL to the full size version of the image', { format: 'uri' }),
      id: prop('integer', 'The image WordPress post ID'),
      extension: prop('string', 'The image file extension'),
      width: prop('integer', 'The image natural width in pixels'),
      height: prop('integer', 'The image natural height in pixels'),
      sizes: prop('array', 'The details about each size available for the image', {
        items: { $ref: '#/components/schemas/ImageSize' },
      }),
    },
  },
  DateDetails: {
    type: 'object',
    properties: {
      year: prop('integer', 'The date year'),
      month: prop('integer', 'The date month'),
      day: prop('integer', 'The date day'),
      hour: prop('integer', 'The date hour'),
      minutes: prop('integer', 'The date minutes'),
      seconds: prop('integer', 'The date seconds'),
    },
  },
  Event: {
    type: 'object',
    properties: {
      ...postHead('event', 'event'),
      rest_url: prop('string', 'The TEC REST API link to fetch this event'),
      title: prop('string', 'The event name'),
      description: prop('string', 'The event long description'),
      excerpt: prop('string', 'The event short description'),
      slug: prop('string', 'The event slug'),
      image: prop('object', 'The event featured image details if set', { $ref: '#/components/schemas/Image' }),
      all_day: prop('boolean', 'Whether or not this event is an all day Event'),
      start_date: prop('string', 'The event start date in the event or site time zone'),
      start_date_details: prop('array', 'An array of each component of the event start date', {
        items: { $ref: '#/components/schemas/DateDetails' },
      }),
      end_date: prop('string', 'The event end date in the event or site time zone'),
      end_date_details: prop('array', 'An array of each component of the event end date', {
        items: { $ref: '#/components/schemas/DateDetails' },
      }),
      utc_start_date: prop('string', 'The event start date in UTC time'),
      utc_start_date_details: prop('array', 'An array of each component of the event start date in UTC time', {
        items: { $ref: '#/components/schemas/DateDetails' },
      }),
      utc_end_date: prop('string', 'The event end date in UTC time'),
      utc_end_date_details: prop('array', 'An array of each component of the event end date in UTC time', {
        items: { $ref: '#/components/schemas/DateDetails' },
      }),
      timezone: prop('string', 'The event time zone string'),
      timezone_abbr: prop('string', 'The abbreviated event time zone string'),
      cost: prop('string', 'The event cost including the currency symbol'),
      cost_details: prop('array', 'The event cost details', { items: { $ref: '#/components/schemas/CostDetails' } }),
      sticky: prop('boolean', 'Whether an event is sticky in the calendar view or not'),
      categories: prop('array', 'The event categories', { items: { $ref: '#/components/schemas/Term' } }),
      tags: prop('array', 'The event tags', { items: { $ref: '#/components/schemas/Term' } }),
      venue: prop('object', 'The event venue', { $ref: '#/components/schemas/Venue' }),
      organizer: prop('array', 'The event organizers', { items: { $ref: '#/components/schemas/Organizer' } }),
    },
  },
  Venue: {
    type: 'object',
    properties: {
      ...postHead('venue', 'organizer'),
      ...linkedHead('venue'),
      show_map: prop('boolean', 'Whether the map should be shown for the venue or not'),
      show_map_link: prop('boolean', 'Whether the map link should be shown for the venue or not'),
      address: prop('string', 'The venue address'),
      city: prop('string', 'The venue city'),
      country: prop('string', 'The venue country'),
      province: prop('string', 'The venue province'),
      state: prop('string', 'The venue state'),
      zip: prop('string', 'The venue ZIP code'),
      phone: prop('string', 'The venue phone number'),
      website: prop('string', 'The venue website URL'),
      stateprovince: prop('string', 'The venue state or province'),
      geo_lat: prop('number', 'The venue geo latitude', { format: 'double' }),
      geo_lng: prop('number', 'The venue geo longitude', { format: 'double' }),
    },
  },
  Organizer: {
    type: 'object',
    properties: {
      ...postHead('organizer', 'organizer'),
      ...linkedHead('organizer'),
      phone: prop('string', 'The organizer phone number'),
      website: prop('string', 'The organizer website'),
      email: prop('string', 'The organizer email address'),
    },
  },
};
