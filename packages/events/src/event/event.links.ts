import { checkArgs, invalid, type ArgSet, type Validator } from '../http/args.ts';
import type { Caller } from '../http/route.ts';
import { isIdText, toRowId } from '../http/row-id.ts';
import type { Params } from '../post/index.ts';

/** A venue or organizer named in an event write: an existing id or inline data to create (or reuse). */
export type LinkedRef = { id: number } | { inline: Params };

/** A linked id: any integer, or digits as text (a negative one in text is inline data, as before). */
const asId = (v: unknown): number | undefined =>
  typeof v === 'string' && !isIdText(v.trim()) ? undefined : toRowId(v);

function refOf(v: unknown): LinkedRef | undefined {
  const id = asId(v);
  if (id !== undefined) return { id };
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const obj = v as Params;
    if (obj.id !== undefined) {
      const inner = asId(obj.id);
      return inner === undefined ? undefined : { id: inner };
    }
    return { inline: obj };
  }
  return undefined;
}

/** `venue`: id, `{id}`, inline data; `""`, `0`, `[]` mean "no change" (a venue cannot be removed, §4.7). */
export function parseVenueRef(v: unknown): LinkedRef | 'none' | 'invalid' {
  if (v === '' || v === 0 || v === '0' || v === null || (Array.isArray(v) && v.length === 0)) return 'none';
  const first = Array.isArray(v) ? v[0] : v;
  return refOf(first) ?? 'invalid';
}

/** `organizer`: one id, CSV, array of ids, `{id}`, inline data, or a mix; `""` and `[]` unlink all. */
export function parseOrganizerRefs(v: unknown): LinkedRef[] | 'invalid' {
  if (v === '' || v === null || (Array.isArray(v) && v.length === 0)) return [];
  let items: unknown[];
  if (Array.isArray(v)) items = v;
  else if (typeof v === 'string')
    items = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  else items = [v];
  const refs: LinkedRef[] = [];
  for (const item of items) {
    const ref = refOf(item);
    if (!ref) return 'invalid';
    refs.push(ref);
  }
  return refs;
}

/**
 * Validator for a list of refs: ids must name a post of the right type that the caller may read (linking a draft
 * the caller cannot see is refused like an unknown id), inline data must pass the create rules.
 */
export function linkedRefsValidator(
  parse: (v: unknown) => LinkedRef[] | LinkedRef | 'none' | 'invalid',
  linkable: (id: number, caller: Caller | null) => Promise<boolean>,
  createArgs: ArgSet,
): Validator {
  return async (v, _name, caller) => {
    const parsed = parse(v);
    if (parsed === 'invalid') return invalid();
    if (parsed === 'none') return true;
    for (const ref of Array.isArray(parsed) ? parsed : [parsed]) {
      if ('id' in ref) {
        if (!(await linkable(ref.id, caller))) return invalid();
      } else {
        try {
          await checkArgs(createArgs, ref.inline, caller);
        } catch {
          return invalid();
        }
      }
    }
    return true;
  };
}
