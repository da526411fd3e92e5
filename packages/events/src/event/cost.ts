/** What the plugin infers from cost strings on every write (§4.6). */
export interface ParsedCost { values: string[]; symbol: string; position: '' | 'prefix' | 'postfix' }

const NUMBER_RE = /\d[\d.,]*/;

/** `"25,55"` → `"25.55"`; `"1,000"` and `"1.000,50"` read as thousands with an optional decimal part. */
function normaliseNumber(text: string): string {
  const m = /^(.*?)([.,])(\d{1,2})$/.exec(text);
  const whole = (m ? m[1]! : text).replace(/[.,]/g, '');
  const n = Number(m ? `${whole}.${m[3]}` : whole);
  return String(n);
}

/**
 * Reads the numeric values, the currency symbol (what is left around the number) and its position.
 * @example parseCost(['0$', '20$', '30$']) // { values: ['0', '20', '30'], symbol: '$', position: 'postfix' }
 */
export function parseCost(raw: readonly string[]): ParsedCost {
  const values: string[] = [];
  let symbol = '';
  let position: ParsedCost['position'] = '';
  for (const item of raw) {
    const m = NUMBER_RE.exec(item);
    if (!m) continue;
    values.push(normaliseNumber(m[0].replace(/[.,]$/, '')));
    const before = item.slice(0, m.index).trim();
    const after = item.slice(m.index + m[0].length).trim();
    if (!symbol && (before || after)) {
      symbol = before || after;
      position = before ? 'prefix' : 'postfix';
    }
  }
  values.sort((a, b) => Number(a) - Number(b));
  return { values, symbol, position };
}

/**
 * The plugin's formatted cost: `min – max` with the symbol, `Free` for zero, one value when min equals max.
 * Without numbers the text as sent is shown.
 */
export function formatCost(raw: readonly string[], symbol: string, position: 'prefix' | 'postfix'): string {
  if (raw.length === 0) return '';
  const { values } = parseCost(raw);
  if (values.length === 0) return raw.join(', ');
  const fmt = (v: string) => (Number(v) === 0 ? 'Free' : position === 'prefix' ? `${symbol}${v}` : `${v}${symbol}`);
  const min = values[0]!;
  const max = values[values.length - 1]!;
  return Number(min) === Number(max) ? fmt(min) : `${fmt(min)} – ${fmt(max)}`;
}
