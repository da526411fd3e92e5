import { describe, expect, it } from 'vitest';
import { tecApiRoot } from './tec-source.ts';
import { TecImportError } from './tec-error.ts';

describe('tecApiRoot', () => {
  it('finds the API root of a site URL, a site in a folder, or the API root itself', () => {
    expect(tecApiRoot('https://example.com')).toBe('https://example.com/wp-json/tribe/events/v1');
    expect(tecApiRoot('https://example.com/blog/')).toBe('https://example.com/blog/wp-json/tribe/events/v1');
    expect(tecApiRoot('http://127.0.0.1:8082/wp-json/tribe/events/v1/events?x=1')).toBe(
      'http://127.0.0.1:8082/wp-json/tribe/events/v1',
    );
  });
  it('refuses what is not an http(s) URL, saying so', () => {
    expect(() => tecApiRoot('example.com')).toThrow(new TecImportError('fetch', 'example.com is not a URL'));
    expect(() => tecApiRoot('ftp://example.com')).toThrow('only http(s) URLs are read');
  });
});
