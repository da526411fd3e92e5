import { describe, expect, it } from 'vitest';
import { JsonText } from './json-text.ts';
import { shapeAnswer } from './reshape.ts';
import { TextBody } from './text-body.ts';

const answer = { status: 200, body: { id: 1, title: 't', cost: '5' }, headers: { 'X-WP-Total': 1 } };

describe('shapeAnswer', () => {
  it('sends JSON as it is, with its own headers', () => {
    const headers: Record<string, string | number> = {};
    const text = new JsonText(JSON.stringify(answer.body));
    const s = shapeAnswer({ ...answer, body: text }, {}, headers);
    expect(s).toEqual({ status: 200, full: text, envelope: false, contentType: 'application/json; charset=UTF-8' });
    expect(headers).toEqual({ 'X-WP-Total': 1, 'Content-Type': 'application/json; charset=UTF-8' });
  });

  it('keeps only the _fields asked for, from an encoded body too, and not on errors', () => {
    expect(
      shapeAnswer({ ...answer, body: new JsonText(JSON.stringify(answer.body)) }, { _fields: 'id,cost' }, {}).full,
    ).toBe('{"id":1,"cost":"5"}');
    const error = { status: 404, body: { code: 'rest_no_route', message: 'x' } };
    expect(shapeAnswer(error, { _fields: 'id' }, {}).full).toBe(JSON.stringify(error.body));
  });

  it('wraps an _envelope with status 200, carrying the own headers in the body instead', () => {
    const headers: Record<string, string | number> = {};
    const s = shapeAnswer({ status: 404, body: { code: 'x' }, headers: { Allow: 'GET' } }, { _envelope: '' }, headers);
    expect(s.status).toBe(200);
    expect(JSON.parse(s.full as string)).toEqual({ body: { code: 'x' }, status: 404, headers: { Allow: 'GET' } });
    expect(headers).toEqual({ 'Content-Type': 'application/json; charset=UTF-8' });
  });

  it('calls a _jsonp callback, or sends bare JSON for an empty one', () => {
    const headers: Record<string, string | number> = {};
    expect(shapeAnswer(answer, { _jsonp: 'cb' }, headers).full).toBe(`/**/cb(${JSON.stringify(answer.body)})`);
    expect(headers['Content-Type']).toBe('application/javascript; charset=UTF-8');
    expect(shapeAnswer(answer, { _jsonp: '' }, {}).full).toBe(JSON.stringify(answer.body));
  });

  it('sends a feed as it is: no reshaping, its own content type, its validators readable by scripts', () => {
    const headers: Record<string, string | number> = {};
    const s = shapeAnswer(
      { status: 200, body: new TextBody('BEGIN:VCALENDAR', 'text/calendar; charset=utf-8') },
      { _fields: 'id', _envelope: '1' },
      headers,
    );
    expect(s).toEqual({
      status: 200,
      full: 'BEGIN:VCALENDAR',
      envelope: false,
      contentType: 'text/calendar; charset=utf-8',
    });
    expect(headers['Access-Control-Expose-Headers']).toContain('ETag');
  });
});
