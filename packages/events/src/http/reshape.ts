import { filterFields, parseFieldList, withLinks } from './response-shape.ts';
import { JsonText } from './json-text.ts';
import { TextBody } from './text-body.ts';

/** What a matched route (or an error) answers: core's WP_REST_Response, before serve_request formats it. */
export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string | number>;
  links?: Record<string, unknown>;
  method?: string;
  lastModified?: number;
  writeToken?: string;
}

/** An answer as serve_request sends it: status, the full GET text (also for HEAD), and whether it was enveloped. */
export interface Shaped {
  status: number;
  full: string | JsonText;
  envelope: boolean;
  contentType: string;
}

/**
 * serve_request's reshaping of an answer by `_fields`, `_envelope` and `_jsonp` (feeds are sent as they are). Writes
 * the answer's own headers and the Content-Type into `headers`, except that an envelope carries the own headers in
 * its body instead.
 * @example shapeAnswer({ status: 200, body: { id: 1, title: 't' } }, { _fields: 'id' }, {}).full // '{"id":1}'
 */
export function shapeAnswer(
  answer: Answer,
  query: Record<string, unknown>,
  headers: Record<string, string | number>,
): Shaped {
  const own = answer.headers ?? {};
  if (answer.body instanceof TextBody) {
    Object.assign(headers, own);
    const contentType = (headers['Content-Type'] = answer.body.contentType);
    // Feeds are not WordPress REST answers: scripts may read their validators (the JSON answers keep WordPress's list).
    headers['Access-Control-Expose-Headers'] = 'X-WP-Total, X-WP-TotalPages, Link, ETag, Last-Modified';
    return { status: answer.status, full: answer.body.text, envelope: false, contentType };
  }
  let status = answer.status;
  const fields = answer.status < 400 && query._fields !== undefined ? parseFieldList(query._fields) : [];
  const jsonp = query._jsonp;
  const envelope = query._envelope !== undefined;
  const reshaped = fields.length > 0 || answer.links !== undefined || envelope || jsonp !== undefined;
  let body = answer.body instanceof JsonText && reshaped ? answer.body.value() : answer.body;
  if (reshaped) body = withLinks(filterFields(body, fields), answer.links);
  if (envelope) {
    body = { body, status: answer.status, headers: own };
    status = 200;
  } else Object.assign(headers, own);
  if (jsonp !== undefined) {
    const contentType = (headers['Content-Type'] = 'application/javascript; charset=UTF-8');
    const json = body instanceof JsonText ? body.text : JSON.stringify(body);
    return {
      status,
      full: typeof jsonp === 'string' && jsonp !== '' ? `/**/${jsonp}(${json})` : json,
      envelope,
      contentType,
    };
  }
  const contentType = (headers['Content-Type'] = 'application/json; charset=UTF-8');
  return { status, full: body instanceof JsonText ? body : JSON.stringify(body), envelope, contentType };
}
