import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { filterFields, parseFieldList, withLinks } from './response-shape.ts';

describe('_fields as rest_filter_response_fields applies it', () => {
  it('keeps named and dotted keys, and nothing of a list for a named sub-field', () => {
    const event = { id: 1, title: 'T', venue: { id: 2, venue: 'Hall', city: 'X' }, organizer: [{ id: 3 }] };
    expect(filterFields(event, ['title', 'venue.venue'])).toEqual({ title: 'T', venue: { venue: 'Hall' } });
    expect(filterFields(event, ['organizer.id'])).toEqual({ organizer: [] });
    expect(filterFields(event, ['venue', 'venue.city'])).toEqual({ venue: event.venue });
    expect(filterFields(event, ['nope'])).toEqual([]);
    expect(filterFields([event, event], ['id'])).toEqual([{ id: 1 }, { id: 1 }]);
  });

  it('reads the list as wp_parse_list does', () => {
    expect(parseFieldList('id, title,,venue.venue')).toEqual(['id', 'title', 'venue.venue']);
    expect(parseFieldList(['id', ' title '])).toEqual(['id', 'title']);
    expect(parseFieldList(undefined)).toEqual([]);
  });

  it('adds links after filtering, turning an emptied answer back into an object', () => {
    expect(withLinks([], { up: [] })).toEqual({ _links: { up: [] } });
    expect(withLinks({ a: 1 }, undefined)).toEqual({ a: 1 });
  });

  const record = fc.dictionary(
    fc.string({ minLength: 1 }).filter((k) => !k.includes('.') && !/[\s,]/.test(k) && k !== '__proto__'),
    fc.jsonValue(),
    { minKeys: 1 },
  );

  it('returns an object unchanged when every top-level key is named', () => {
    fc.assert(
      fc.property(record, (obj) => {
        expect(filterFields(obj, Object.keys(obj))).toEqual(obj);
      }),
    );
  });

  it('never returns a key that was not named', () => {
    fc.assert(
      fc.property(record, fc.array(fc.string({ minLength: 1 }), { minLength: 1 }), (obj, names) => {
        const out = filterFields(obj, names);
        const keys = Array.isArray(out) ? [] : Object.keys(out as object);
        for (const k of keys) expect(names.map((n) => n.split('.')[0])).toContain(k);
      }),
    );
  });
});
