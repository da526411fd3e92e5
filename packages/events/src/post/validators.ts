import { isStorableInstant, parseDateTime, STORABLE_RANGE } from '../time/index.ts';
import { invalid, type Validator } from '../http/args.ts';
import { REGISTERED_STATUSES } from './status.ts';

export const OUT_OF_RANGE_DATE = `Dates must be between ${STORABLE_RANGE.min} and ${STORABLE_RANGE.max}.`;

/** The plugin's is_time (a Unix timestamp or anything strtotime() parses), within the range a store can hold. */
export const isTime: Validator = (v) => {
  if (typeof v !== 'string' && typeof v !== 'number') return invalid();
  const ms = parseDateTime(v, 'UTC', Date.now());
  if (ms === undefined) return invalid();
  return isStorableInstant(ms, 'UTC') ? true : invalid(OUT_OF_RANGE_DATE);
};

export const nonEmptyString: Validator = (v) => (typeof v === 'string' && v.trim() !== '' ? true : invalid());

export const registeredStatus: Validator = (v) =>
  typeof v === 'string' && REGISTERED_STATUSES.has(v) ? true : invalid();

/** Empty, or an absolute URL as PHP's FILTER_VALIDATE_URL wants (scheme and host). */
export function isUrlOrEmpty(v: unknown): boolean {
  if (v === '' || v === null) return true;
  if (typeof v !== 'string' || !/^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+[^\s]*$/i.test(v)) return false;
  try {
    new URL(v);
    return true;
  } catch {
    return false;
  }
}

export const urlOrEmpty: Validator = (v) => (isUrlOrEmpty(v) ? true : invalid());

export const positiveInt: Validator = (v) => (typeof v === 'number' && v >= 1 ? true : invalid());

/** An existing user id; `""` and unknown ids are 400s. */
export const existingUser =
  (exists: (id: number) => Promise<boolean>): Validator =>
  async (v) =>
    typeof v === 'number' && v > 0 && (await exists(v)) ? true : invalid();
