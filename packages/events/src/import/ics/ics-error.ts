/** One refused VEVENT: its UID (and RECURRENCE-ID for an override) and why, as the REST write would say it. */
export interface ItemProblem {
  readonly uid: string;
  readonly recurrenceId?: string;
  readonly reason: string;
}

/**
 * Why a whole iCalendar import is refused, a closed set the CLI prints and the subscription log keeps:
 * `too_large` (bytes or VEVENTs over the limits), `encoding` (not UTF-8), `malformed` (not RFC 5545 text),
 * `bad_events` (VEVENTs the REST rules refuse; nothing written), `fetch` (the URL could not be read safely).
 */
export type IcsErrorKind = 'too_large' | 'encoding' | 'malformed' | 'bad_events' | 'fetch';

export class IcsImportError extends Error {
  constructor(
    readonly kind: IcsErrorKind,
    message: string,
    readonly problems: readonly ItemProblem[] = [],
  ) {
    super(message);
  }
}

/** A VEVENT the iCalendar rules refuse before the REST rules see it (no UID, no DTSTART, an unknown TZID). */
export class ItemRefused extends Error {}
