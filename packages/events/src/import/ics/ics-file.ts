import ICAL from 'ical.js';
import { IcsImportError } from './ics-error.ts';

export interface IcsLimits {
  /** Largest file or download read; checked before parsing (a fetch stops reading here). */
  readonly maxBytes: number;
  /** Most VEVENTs in one feed (overrides included). */
  readonly maxEvents: number;
}

/** 32 MiB holds ~60,000 typical VEVENTs; 20,000 events is twice the feed the benchmark imports within 10 s. */
export const DEFAULT_ICS_LIMITS: IcsLimits = { maxBytes: 32 * 2 ** 20, maxEvents: 20_000 };

export interface IcsFile {
  readonly vevents: ICAL.Component[];
  /** The feed's own VTIMEZONEs by TZID (used for TZIDs that are not IANA names). */
  readonly zones: ReadonlyMap<string, ICAL.Timezone>;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The text of a feed: UTF-8 (RFC 5545 §3.1.4), a BOM dropped; UTF-16 and invalid bytes are refused by name. */
function decode(bytes: Uint8Array): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw new IcsImportError('encoding', 'the feed is UTF-16; iCalendar text must be UTF-8 (RFC 5545 §3.1.4)');
  try {
    return utf8.decode(bytes).replace(/^\uFEFF/, '');
  } catch {
    let at = 0;
    // The first bad byte, so the error says where: decode growing prefixes is quadratic, so find it by halving.
    let lo = 0;
    let hi = bytes.length;
    while (hi - lo > 1) {
      at = (lo + hi) >> 1;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, at), { stream: true });
        lo = at;
      } catch {
        hi = at;
      }
    }
    throw new IcsImportError('encoding', `the feed is not UTF-8 (an invalid byte near offset ${lo})`);
  }
}

/**
 * Reads an iCalendar file within `limits`: size first, then encoding, then ical.js's parse, then the VCALENDAR
 * shape. Every refusal is an `IcsImportError` saying why; nothing here writes.
 * @example const { vevents, zones } = readIcs(await readFile('feed.ics'), DEFAULT_ICS_LIMITS)
 */
export function readIcs(bytes: Uint8Array, limits: IcsLimits): IcsFile {
  if (bytes.length > limits.maxBytes)
    throw new IcsImportError('too_large', `the feed has ${bytes.length} bytes; at most ${limits.maxBytes} are read`);
  const text = decode(bytes);
  if (text.includes('\u0000')) throw new IcsImportError('malformed', 'the feed contains a NUL character');
  if (!/^\s*BEGIN:VCALENDAR\r?\n/i.test(text))
    throw new IcsImportError('malformed', 'not an iCalendar file: it does not begin with BEGIN:VCALENDAR');
  // Counted before parsing, so a feed of a million tiny VEVENTs is refused without building a million components.
  const count = (text.match(/^BEGIN:VEVENT\r?$/gim) ?? []).length;
  if (count > limits.maxEvents)
    throw new IcsImportError('too_large', `the feed has ${count} VEVENTs; at most ${limits.maxEvents} are imported`);
  let root: ICAL.Component;
  try {
    const parsed: unknown = ICAL.parse(text);
    // Several top-level components parse to a list; a feed is one VCALENDAR.
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string')
      throw new Error('the file holds more than one top-level component');
    root = new ICAL.Component(parsed as never);
  } catch (err) {
    throw new IcsImportError(
      'malformed',
      `not valid iCalendar text: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (root.name !== 'vcalendar')
    throw new IcsImportError('malformed', `the top component is ${root.name.toUpperCase()}, not VCALENDAR`);
  const zones = new Map<string, ICAL.Timezone>();
  for (const tz of root.getAllSubcomponents('vtimezone')) {
    const id = tz.getFirstPropertyValue('tzid');
    if (typeof id === 'string') zones.set(id, new ICAL.Timezone(tz));
  }
  return { vevents: root.getAllSubcomponents('vevent'), zones };
}
