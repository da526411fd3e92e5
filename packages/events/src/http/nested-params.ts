/**
 * Parses a query string or form body the way PHP does: `a[]=1&a[]=2` is a list, `venue[city]=X` an object,
 * a repeated plain key keeps the last value.
 * @example parseNestedParams('a[]=1&a[]=2&v[city]=Rome') // { a: ['1', '2'], v: { city: 'Rome' } }
 */
export function parseNestedParams(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  if (!text) return out;
  for (const pair of text.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const rawKey = eq < 0 ? pair : pair.slice(0, eq);
    const rawValue = eq < 0 ? '' : pair.slice(eq + 1);
    const key = decode(rawKey);
    const value = decode(rawValue);
    const open = key.indexOf('[');
    if (open <= 0 || !key.endsWith(']')) { out[key] = value; continue; }
    const path = [key.slice(0, open), ...key.slice(open + 1, -1).split('][')];
    assign(out, path, value);
  }
  for (const k of Object.keys(out)) out[k] = listify(out[k]);
  return out;
}

/** `a[0]=x&a[1]=y` is a list in PHP too: maps keyed 0..n-1 become arrays. */
function listify(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(listify);
  if (v === null || typeof v !== 'object') return v;
  const obj = v as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (const k of keys) obj[k] = listify(obj[k]);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return keys.map((k) => obj[k]);
  return obj;
}

function decode(s: string): string {
  try { return decodeURIComponent(s.replace(/\+/g, ' ')); } catch { return s; }
}

const UNSAFE = new Set(['__proto__', 'prototype', 'constructor']);

function assign(target: Record<string, unknown>, path: string[], value: string): void {
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < path.length; i++) {
    const part = path[i]!;
    if (UNSAFE.has(part)) return;
    const last = i === path.length - 1;
    if (Array.isArray(node)) {
      if (part === '') {
        if (last) { node.push(value); return; }
        const child: Record<string, unknown> = {};
        node.push(child);
        node = child;
        continue;
      }
      // A named key inside a list turns it into an object, as PHP arrays are maps.
      const asObject: Record<string, unknown> = Object.assign(Object.create(null) as Record<string, unknown>, node);
      node = asObject;
    }
    const obj = node as Record<string, unknown>;
    // `a[]` on a map appends at the next integer key, as PHP does for mixed `a[0][x]=…&a[]=…`.
    const key = part === '' ? String(Object.keys(obj).reduce((m, k) => (/^\d+$/.test(k) ? Math.max(m, Number(k) + 1) : m), 0)) : part;
    if (last) {
      obj[key] = value;
      return;
    }
    const nextIsList = path[i + 1] === '';
    let child = obj[key];
    if (typeof child !== 'object' || child === null) {
      child = nextIsList ? [] : (Object.create(null) as Record<string, unknown>);
      obj[key] = child;
    }
    node = child as Record<string, unknown> | unknown[];
  }
}
