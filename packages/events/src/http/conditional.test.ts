import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { answerValidators, isNotModified, notModifiedHeaders } from './conditional.ts';
import { JsonText } from './json-text.ts';

// The tag as issue 15 defined it, written out plainly: sha1 of the body, then of that hash and the sorted own headers.
const reference = (text: string, own: Record<string, string | number>) => {
  const sha1 = (s: string) => createHash('sha1').update(s).digest('base64url');
  const meta = Object.keys(own)
    .sort()
    .map((k) => `${k.toLowerCase()}:${String(own[k])}`)
    .join('\n');
  return `"${sha1(`${sha1(text)}\n${meta}`)}"`;
};
const JSON_TYPE = 'application/json; charset=UTF-8';

describe('answerValidators', () => {
  it('gives a text and a cached JsonText of the same bytes the reference tag, whatever the header order', () => {
    const own = { 'X-TEC-Total': 12, Allow: 'GET' };
    const all = { ...own, 'Content-Type': JSON_TYPE };
    const text = '{"id":1,"title":"Launch"}';
    expect(answerValidators(text, own, JSON_TYPE).etag).toBe(reference(text, all));
    const body = new JsonText(text);
    expect(answerValidators(body, own, JSON_TYPE).etag).toBe(reference(text, all));
    expect(answerValidators(body, { Allow: 'GET', 'X-TEC-Total': 12 }, JSON_TYPE).etag).toBe(reference(text, all));
    expect(answerValidators(body, own, 'application/javascript; charset=UTF-8').etag).toBe(
      reference(text, { ...own, 'Content-Type': 'application/javascript; charset=UTF-8' }),
    );
  });

  it('re-sent with other own headers or another modification time, a cached body gets their validators', () => {
    const body = new JsonText('{"id":2}');
    const withType = (own: Record<string, string | number>) => ({ ...own, 'Content-Type': JSON_TYPE });
    const first = answerValidators(body, { Allow: 'GET' }, JSON_TYPE, Date.UTC(2026, 0, 1));
    expect(first.lastModified).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    const variants: Array<Record<string, string | number>> = [
      { Allow: 'GET, POST, PUT, PATCH, DELETE' },
      { Allow: 'GET', 'X-TEC-Total': 1 },
      {},
    ];
    for (const own of variants) {
      expect(answerValidators(body, own, JSON_TYPE, Date.UTC(2026, 0, 1)).etag).toBe(
        reference(body.text, withType(own)),
      );
    }
    const later = answerValidators(body, { Allow: 'GET' }, JSON_TYPE, Date.UTC(2026, 0, 2));
    expect(later).toEqual(expect.objectContaining({ etag: first.etag, lastModified: 'Fri, 02 Jan 2026 00:00:00 GMT' }));
    expect(answerValidators(body, { Allow: 'GET' }, JSON_TYPE).lastModified).toBeUndefined();
  });

  it('tells bodies that differ by one byte apart', () => {
    expect(answerValidators(new JsonText('{"a":1}'), {}, JSON_TYPE).etag).not.toBe(
      answerValidators(new JsonText('{"a":2}'), {}, JSON_TYPE).etag,
    );
  });
});

describe('isNotModified and notModifiedHeaders', () => {
  it('matches If-None-Match lists weakly and prefers it to If-Modified-Since', () => {
    expect(isNotModified({ 'if-none-match': 'W/"x", "abc"' }, '"abc"')).toBe(true);
    expect(isNotModified({ 'if-none-match': '*' }, '"abc"')).toBe(true);
    expect(
      isNotModified(
        { 'if-none-match': '"other"', 'if-modified-since': 'Fri, 02 Jan 2026 00:00:00 GMT' },
        '"abc"',
        Date.UTC(2026, 0, 1),
      ),
    ).toBe(false);
    expect(
      isNotModified(
        { 'if-modified-since': 'Fri, 02 Jan 2026 00:00:00 GMT' },
        '"abc"',
        Date.UTC(2026, 0, 1, 0, 0, 0, 900),
      ),
    ).toBe(true);
    expect(isNotModified({ 'if-modified-since': 'not a date' }, '"abc"', 0)).toBe(false);
  });

  it('drops the body description from a 304', () => {
    expect(
      notModifiedHeaders({
        ETag: '"a"',
        'Content-Type': JSON_TYPE,
        'Content-Disposition': 'attachment',
        Vary: 'Origin',
      }),
    ).toEqual({ ETag: '"a"', Vary: 'Origin' });
  });
});
