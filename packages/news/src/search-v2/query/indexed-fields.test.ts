import { describe, expect, it } from 'vitest';
import { errorOf } from '../v2-error.fixture.ts';
import { assertFieldsIndexed, fieldsOf } from './indexed-fields.js';
import { parseQuery } from './parse-query.js';

describe('assertFieldsIndexed', () => {
  it('finds a title: term however deep it sits', () => {
    expect(fieldsOf(parseQuery('war OR NOT (peace NEAR/3 title:"cold *")').tree)).toEqual(new Set(['body', 'title']));
  });

  it('answers 422 headlines_not_indexed for title: when headlines are not indexed', () => {
    const error = errorOf(() => assertFieldsIndexed(parseQuery('war title:peace').tree, new Set(['body'])));
    expect(error.code).toBe('headlines_not_indexed');
    expect(error.status).toBe(422);
  });

  it('lets a body-only query through, and title: when headlines are indexed', () => {
    expect(() => assertFieldsIndexed(parseQuery('war peace*').tree, new Set(['body']))).not.toThrow();
    expect(() => assertFieldsIndexed(parseQuery('title:war').tree, new Set(['body', 'title']))).not.toThrow();
  });
});
