import { isAscii } from 'node:buffer';
import { GatewayError, ValidationFailed } from '../errors/index.ts';
import { issue } from './issues.ts';

/** What FastAPI hands to validation: absent body, parsed JSON, or the raw text of a non-JSON content type. */
export type RequestBody =
  | { readonly kind: 'json'; readonly value: unknown }
  | { readonly kind: 'raw'; readonly text: string }
  | { readonly kind: 'empty' };

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** FastAPI parses the body as JSON when the content type is absent, `application/json` or `application/*+json`. */
function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === 'application/json') return true; // what nearly every client sends: skip the parsing below
  if (contentType === undefined || contentType.trim() === '') return true;
  const mime = (contentType.split(';')[0] ?? '').trim().toLowerCase();
  const [main, sub] = mime.split('/');
  return main === 'application' && sub !== undefined && (sub === 'json' || sub.endsWith('+json'));
}

/** Python's json module messages for the failures V8 reports, so `ctx.error` reads as FastAPI's does. */
function pythonJsonMessage(v8Message: string): string {
  if (/non-whitespace character after JSON/.test(v8Message)) return 'Extra data';
  if (/property name/i.test(v8Message)) return 'Expecting property name enclosed in double quotes';
  if (/Expected ',' or/.test(v8Message)) return "Expecting ',' delimiter";
  if (/Expected ':'/.test(v8Message)) return "Expecting ':' delimiter";
  if (/control character/i.test(v8Message)) return 'Invalid control character at';
  if (/Unterminated string/i.test(v8Message)) return 'Unterminated string starting at';
  if (/escape/i.test(v8Message)) return 'Invalid \\escape';
  return 'Expecting value';
}

/** Python reports the position in characters (code points); V8 in UTF-16 units. */
function codePointPosition(text: string, utf16Pos: number): number {
  let n = 0;
  for (let i = 0; i < utf16Pos && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Where the string left open at the end of `text` begins (its opening quote). */
function unterminatedStringStart(text: string): number {
  let start = text.length;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (!inString) {
      if (c === '"') {
        inString = true;
        start = i;
      }
    } else if (c === '\\') {
      i++;
    } else if (c === '"') {
      inString = false;
    }
  }
  return inString ? start : text.length;
}

/** Decodes a request body as FastAPI does before validation. Throws the 422/400 FastAPI would give. */
export function readRequestBody(raw: Buffer | undefined, contentType: string | undefined): RequestBody {
  if (raw === undefined || raw.length === 0) return { kind: 'empty' };
  let text: string;
  try {
    // ASCII (most bodies) needs no UTF-8 validation, and latin1 decoding of it is a plain copy.
    text = isAscii(raw) ? raw.toString('latin1') : UTF8.decode(raw);
  } catch {
    throw new GatewayError('body_unreadable', 'There was an error parsing the body');
  }
  if (!isJsonContentType(contentType)) return { kind: 'raw', text };
  try {
    return { kind: 'json', value: JSON.parse(text) };
  } catch (e) {
    const message = e instanceof Error ? e.message : '';
    const at = /at position (\d+)/.exec(message);
    const pythonMessage = pythonJsonMessage(message);
    // Python points at the opening quote of an unterminated string; V8 at the end of the input.
    const utf16Pos = pythonMessage.startsWith('Unterminated string')
      ? unterminatedStringStart(text)
      : at?.[1] !== undefined
        ? Number(at[1])
        : text.length;
    throw new ValidationFailed([issue.jsonInvalid(codePointPosition(text, utf16Pos), pythonMessage)]);
  }
}
