import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { EventColumnName, EventColumns } from '../db/index.ts';
import { writeFilters } from '../post/index.ts';
import type { EventRow } from './event.repository.ts';
import { EVENT_FIELDS, phpTruthy, type EventField } from './fields.ts';
import {
  createdFieldNames,
  eventSelect,
  fieldArgs,
  fieldColumns,
  fieldShapes,
  insertDefaults,
  occurrenceCopier,
  placeBefore,
  type FieldTable,
} from './field-rules.ts';

const first: EventColumns = {
  post_id: 7,
  start_local: '2026-01-05 10:00:00',
  end_local: '2026-01-05 11:00:00',
  start_utc: '2026-01-05 09:00:00',
  end_utc: '2026-01-05 10:00:00',
  timezone: 'Europe/Rome',
  all_day: 0,
  cost: '["5"]',
  currency_symbol: '€',
  currency_position: 'postfix',
  website: 'https://example.org',
  show_map: 1,
  show_map_link: 0,
  hide_from_listings: 0,
  featured: 1,
  venue_id: 3,
  parent_id: null,
  thumbnail_id: 9,
  duration: 3600,
};

const kses = writeFilters({ can: () => false });

describe('the service field table', () => {
  it('selects every column but the key, in table order', () => {
    expect(eventSelect()).toEqual(Object.keys(EVENT_FIELDS).map((c) => `events.${c}`));
    expect(eventSelect()).toHaveLength(Object.keys(first).length - 1);
    expect(eventSelect()).not.toContain('events.post_id');
  });

  it("copies to an occurrence exactly the 'copy' columns: not the key, dates, series link or duration", () => {
    const notCopied = ['post_id', 'start_local', 'end_local', 'start_utc', 'end_utc', 'parent_id', 'duration'];
    const copied = Object.fromEntries(Object.entries(first).filter(([c]) => !notCopied.includes(c)));
    expect(occurrenceCopier()(first)).toEqual(copied);
    expect(Object.keys(copied)).toHaveLength(12);
  });

  it('names every column a create may leave unset, in table order, with its stored default', () => {
    expect(Object.entries(insertDefaults())).toEqual([
      ['cost', null],
      ['currency_symbol', ''],
      ['currency_position', ''],
      ['website', null],
      ['show_map', 0],
      ['show_map_link', 0],
      ['hide_from_listings', 0],
      ['featured', 0],
      ['venue_id', null],
      ['parent_id', null],
      ['thumbnail_id', null],
    ]);
  });

  it('writes a sent website through the URL filter, an empty one as an empty string, and flags as 0/1', () => {
    const sent = new Set(['website', 'show_map', 'featured']);
    expect(fieldColumns({ website: 'javascript:alert(1)', show_map: true, featured: false }, sent, kses)).toEqual({
      website: '',
      show_map: 1,
      featured: 0,
    });
    expect(fieldColumns({ website: null }, new Set(['website']), kses)).toEqual({ website: '' });
    expect(fieldColumns({ show_map: true }, new Set(), kses)).toEqual({});
  });

  it('drops an empty website from a create only', () => {
    for (const empty of ['', '0', 0, null])
      expect([...createdFieldNames({ website: empty }, new Set(['website', 'title']))]).toEqual(['title']);
    expect([...createdFieldNames({ website: 'https://a.example' }, new Set(['website']))]).toEqual(['website']);
  });

  it('maps tec/v1 flags with PHP truthiness', () => {
    expect(fieldShapes().tecParams({ featured: 'maybe' }, (k) => k === 'featured')).toEqual([['featured', true]]);
    expect(phpTruthy('false')).toBe(false);
  });
});

// A field the service does not have, added as one entry: every derived surface picks it up in its place.
const livestream: EventField<EventColumnName> = {
  occurrence: 'copy',
  insert: '',
  rest: {
    before: 'categories',
    arg: Type.Optional(Type.String({ description: 'The live stream URL' })),
    validate: (v) => (String(v).startsWith('https://') ? true : { message: 'https only' }),
    write: (v: unknown, k) => k.url(String(v)),
    createDrops: (v) => v === '',
    show: (e) => (e as EventRow & { livestream: string }).livestream,
    blanked: '',
    doc: { type: 'string', description: 'The live stream URL' },
    tec: {
      argBefore: 'cost',
      before: 'sticky',
      arg: Type.Optional(Type.String({ description: 'The live stream URL.' })),
      toParam: (v) => String(v).trim(),
    },
  },
};
const withStream: FieldTable = { ...(EVENT_FIELDS as unknown as FieldTable), livestream };

/** The `tribe/events/v1` keys from `website` to `categories` once `livestream` is placed before `categories`. */
const TRIBE_RUN = [
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'livestream',
  'categories',
];

describe('a field added as one table entry', () => {
  const row = { ...first, livestream: 'https://live.example/1' } as unknown as EventRow;
  const shapes = fieldShapes(withStream);

  it('is selected, given its default on create and copied to occurrences', () => {
    expect(eventSelect(withStream).at(-1)).toBe('events.livestream');
    expect(insertDefaults(withStream)).toMatchObject({ livestream: '' });
    expect(occurrenceCopier(withStream)(row as unknown as EventColumns)).toMatchObject({
      livestream: 'https://live.example/1',
    });
  });

  it('is a write argument with its check, placed before the key it names', () => {
    const args = fieldArgs({ sticky: Type.Boolean(), categories: Type.Unknown() }, withStream);
    expect(Object.keys(args.properties)).toEqual(TRIBE_RUN);
    expect(args.validators.livestream?.('http://x', 'livestream', null)).toEqual({ message: 'https only' });
  });

  it('is written when sent and dropped from a create when empty', () => {
    expect(fieldColumns({ livestream: 'https://live.example/2' }, new Set(['livestream']), kses, withStream)).toEqual({
      livestream: 'https://live.example/2',
    });
    expect([...createdFieldNames({ livestream: '' }, new Set(['livestream']), withStream)]).toEqual([]);
  });

  it('shows in both namespaces, blanked and documented in its place', () => {
    const tribe = shapes.tribeBody({ cost: '', sticky: false, categories: [] }, row, 'https://site/event/x/');
    expect(Object.keys(tribe)).toEqual(['cost', ...TRIBE_RUN]);
    expect(tribe.livestream).toBe('https://live.example/1');
    expect(shapes.blanked).toMatchObject({ livestream: '', website: '', featured: null });
    expect(Object.keys(shapes.docs({ sticky: {}, categories: {} }))).toContain('livestream');
    const tec = shapes.tecBody({ displays_on: [], sticky: false, cost: '' }, row, '');
    expect(Object.keys(tec)).toEqual(['displays_on', 'featured', 'livestream', 'sticky', 'cost']);
    expect(Object.keys(shapes.tecArgs({ all_day: Type.Unknown(), cost: Type.Unknown() }).properties)).toEqual([
      'all_day',
      'featured',
      'livestream',
      'cost',
    ]);
    expect(shapes.tecParams({ livestream: ' https://a ' }, () => true)).toEqual([
      ['featured', true],
      ['livestream', 'https://a'],
    ]);
  });

  it('is refused at start-up when it names a key the answer lacks', () => {
    expect(() => fieldShapes(withStream).docs({ sticky: {} })).toThrow('event field featured: no key categories');
  });
});

describe('placeBefore', () => {
  // Naive reference: walk the base keys, emitting the placed keys that name each one just before it.
  const reference = (base: string[], placed: [string, string][]) =>
    base.flatMap((k) => [...placed.filter(([, b]) => b === k).map(([p]) => p), k]);

  it('keeps the base order and puts each placed key, in given order, just before its anchor', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.string({ minLength: 1, maxLength: 4 }).map((s) => `b${s}`),
          { minLength: 1, maxLength: 12 },
        ),
        fc.uniqueArray(
          fc.string({ minLength: 1, maxLength: 4 }).map((s) => `p${s}`),
          { maxLength: 8 },
        ),
        fc.nat(),
        (base, keys, seed) => {
          const placed = keys.map((k, i) => [k, base[(seed + i * 7) % base.length]!] as [string, string]);
          const out = placeBefore(Object.fromEntries(base.map((k) => [k, `v${k}`])), placed, (k) => `v${k}`);
          expect(Object.keys(out)).toEqual(reference(base, placed));
          expect(Object.entries(out).every(([k, v]) => v === `v${k}`)).toBe(true);
        },
      ),
    );
  });
});
