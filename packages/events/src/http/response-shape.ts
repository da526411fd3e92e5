// Core's global response parameters (`_fields`, `_envelope`, `_jsonp`), applied in WP_REST_Server::serve_request's
// order: `_fields` filters the data, the response's links are added after it, then the envelope wraps body, status
// and the response's own headers, and JSONP wraps the JSON text.

type FieldTree = { [key: string]: true | FieldTree };

/** `wp_parse_list`: an array as is, a string split on commas and whitespace; empty entries dropped. */
export function parseFieldList(raw: unknown): string[] {
  const list = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(/[\s,]+/) : [];
  return list.map((f) => f.trim()).filter((f) => f !== '');
}

/** `rest_filter_response_fields`' nested map: `a.b,a.c` → {a: {b: true, c: true}}; a parent named whole wins. */
function fieldTree(fields: readonly string[]): FieldTree {
  // Null prototypes: a field named `valueOf` or `constructor` must not find Object.prototype's.
  const root: FieldTree = Object.create(null) as FieldTree;
  next: for (const field of fields) {
    const parts = field.split('.');
    let ref = root;
    while (parts.length > 1) {
      const part = parts.shift()!;
      const sub = ref[part];
      if (sub === true) continue next;
      ref = ref[part] = sub ?? (Object.create(null) as FieldTree);
    }
    ref[parts[0]!] = true;
  }
  return root;
}

const isContainer = (v: unknown): v is object => v !== null && typeof v === 'object';

/**
 * `_rest_array_intersect_key_recursive`. Lists are PHP arrays with keys 0..n-1, so a named field keeps none of a
 * list's items: that is why `_fields=events.id` on a list answers `"events": []` in the plugin. An emptied object
 * is an empty PHP array, which PHP encodes as `[]`.
 */
function intersect(value: object, tree: FieldTree): unknown {
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  const kept: Array<readonly [string, unknown]> = [];
  for (const [key, v] of entries) {
    const want = tree[key];
    if (want === undefined) continue;
    kept.push([key, want !== true && isContainer(v) ? intersect(v, want) : v]);
  }
  if (kept.every(([k], i) => k === String(i))) return kept.map(([, v]) => v);
  return Object.fromEntries(kept);
}

/** `_fields`: keeps the named keys (dotted for nested ones) of an object, or of each item of a top-level list. */
export function filterFields(data: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || !isContainer(data)) return data;
  const tree = fieldTree(fields);
  return Array.isArray(data)
    ? data.map((item) => (isContainer(item) ? intersect(item, tree) : item))
    : intersect(data, tree);
}

/** `response_to_data`: links join the data as `_links` (an emptied `[]` becomes an object again, as in PHP). */
export function withLinks(data: unknown, links: Record<string, unknown> | undefined): unknown {
  if (links === undefined) return data;
  if (Array.isArray(data) && data.length === 0) return { _links: links };
  return isContainer(data) && !Array.isArray(data) ? { ...data, _links: links } : data;
}

/** `wp_check_jsonp_callback`: letters, digits, `_` and `.` only. */
export const isValidJsonpCallback = (name: string): boolean => /^[\w.]+$/.test(name);

/**
 * `rest_is_field_included`: whether `_fields` asks for `field` (itself, a key inside it, or a parent of it); with no
 * `_fields` every field is. Core's controllers add their links only when `_links` is included.
 */
export function isFieldIncluded(field: string, rawFields: unknown): boolean {
  const fields = parseFieldList(rawFields);
  if (fields.length === 0) return true;
  return fields.some((f) => f === field || f.startsWith(`${field}.`) || field.startsWith(`${f}.`));
}
