// The plugin's cost rules (Tribe__Cost_Utils in TEC 6.17, compat §4.6), reproduced step by step because clients show
// their quirks: the symbol is inferred per comma-separated part, the display drops non-numeric matches, values
// normalise separators by guessing which one is decimal.
import { sanitizeTitle } from '../post/index.ts';

/** The currency symbol and its position as inferred on write (both `''` when none or inconsistent). */
export interface ParsedCost {
  symbol: string;
  position: '' | 'prefix' | 'postfix';
}

/** One entry of `parse_cost_range`: its sort key and the text as matched. */
interface CostEntry {
  key: string;
  numeric: boolean;
  text: string;
}

const COST_RE = /[.,]?(\d+)[.,]?(\d*)/g;
const isNumeric = (s: string): boolean => /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(s);

/** PHP `number_format($n, $decimals)` with both separators removed: the plugin's "well balanced" sort key. */
const balancedKey = (n: number, decimals: number): string => n.toFixed(decimals).replace('.', '');

/**
 * `parse_cost_range`: every number in the strings keyed by its value (later duplicates replace the text in place),
 * text without numbers keyed by its sanitized title; sorted by key when `sort`.
 */
function parseCostRange(costs: readonly string[], sort: boolean): CostEntry[] {
  const matched = costs.map((c) => [...c.matchAll(COST_RE)]);
  const decimals = Math.max(0, ...matched.flatMap((ms) => ms.map((m) => m[2]!.length)));
  const byKey = new Map<string, CostEntry>();
  costs.forEach((cost, i) => {
    const texts = matched[i]!.length > 0 ? matched[i]!.map((m) => m[0]) : [cost];
    for (const text of texts) {
      const asNumber = text.replace(/[.,]/g, '.');
      const numeric = isNumeric(asNumber);
      const key = numeric ? balancedKey(Number(asNumber), decimals) : sanitizeTitle(asNumber);
      const old = byKey.get(key);
      if (old) old.text = text;
      else byKey.set(key, { key, numeric, text });
    }
  });
  const entries = [...byKey.values()];
  // PHP's ksort: numeric keys by value, before the others (digits sort before letters).
  if (sort)
    entries.sort((a, b) =>
      a.numeric && b.numeric
        ? Number(a.key) - Number(b.key)
        : a.numeric
          ? -1
          : b.numeric
            ? 1
            : a.key < b.key
              ? -1
              : a.key > b.key
                ? 1
                : 0,
    );
  return entries;
}

const splitParts = (raw: readonly string[]): string[] => (raw.length === 1 ? raw[0]!.split(/\s*,\s*/) : [...raw]);

/**
 * The symbol and position the plugin stores on write: what is left around each number of each comma-separated part,
 * which must be the same everywhere.
 * @example parseCost(['15 EUR']) // { symbol: 'EUR', position: 'postfix' }
 * @example parseCost(['12,50 €']) // { symbol: '', position: '' } (two parts, "12" and "50 €", disagree)
 */
export function parseCost(raw: readonly string[]): ParsedCost {
  const parts = splitParts(raw);
  const symbols: string[] = [];
  parseCostRange(parts, false).forEach((e, i) => {
    if (e.numeric) symbols.push((parts[i] ?? '').split(e.text).join('').trim());
  });
  const symbol = symbols[0] ?? '';
  if (symbol === '' || symbols.some((s) => s !== symbol)) return { symbol: '', position: '' };
  const positions = parts
    .map((p) => p.trim().indexOf(symbol))
    .filter((at) => at >= 0)
    .map((at) => (at === 0 ? 'prefix' : 'postfix'));
  if (positions.length === 0 || positions.some((p) => p !== positions[0])) return { symbol: '', position: '' };
  return { symbol, position: positions[0]! };
}

/** `get_event_costs`: each stored value parsed on its own, the first text of a key kept. */
function eventCosts(raw: readonly string[]): CostEntry[] {
  const byKey = new Map<string, CostEntry>();
  for (const value of raw) for (const e of parseCostRange([value], true)) if (!byKey.has(e.key)) byKey.set(e.key, e);
  return [...byKey.values()];
}

/** `get_cost_by_func`: a lone non-numeric text as is, otherwise the smallest or largest numeric text (0 when none). */
function costBy(entries: CostEntry[], which: 'min' | 'max'): string {
  const again = parseCostRange(
    entries.map((e) => e.text),
    true,
  );
  if (again.length === 1 && !isNumeric(again[0]!.text)) return again[0]!.text;
  const numeric = again.filter((e) => isNumeric(e.text));
  if (numeric.length === 0) return '0';
  const pick = which === 'min' ? numeric[0]! : numeric[numeric.length - 1]!;
  return pick.text === '' || pick.text === '0' ? '0' : pick.text;
}

const ESC_HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };
const escHtml = (s: string): string => s.replace(/&(?![a-z0-9#]+;)|[<>"']/gi, (c) => ESC_HTML[c]!);

/** What the site shows when an event has no currency of its own. */
export interface CurrencyDefault {
  symbol: string;
  position: 'prefix' | 'postfix';
}

/**
 * The formatted cost (`tribe_get_cost($id, true)`): `min – max`, one value when they are equal, `Free` for zero,
 * the event's symbol or else the site's.
 * @example formatCost(['5 - 10'], { symbol: '', position: '' }, { symbol: '$', position: 'prefix' }) // '$5 – $10'
 */
export function formatCost(raw: readonly string[], own: ParsedCost, site: CurrencyDefault): string {
  const entries = eventCosts(raw);
  if (entries.length === 0) return '';
  const symbol = own.symbol || site.symbol;
  const position = own.position || site.position;
  const show = (cost: string): string => {
    if (cost === '0') return 'Free';
    if (!isNumeric(cost.replace(/[.,]/g, ''))) return escHtml(cost);
    return escHtml(position === 'postfix' ? `${cost}${symbol}` : `${symbol}${cost}`);
  };
  const min = show(costBy(entries, 'min'));
  const max = show(costBy(entries, 'max'));
  return min === max ? min : `${min} – ${max}`;
}

/** `parse_separators`: with two kinds the last is decimal; with one, it is decimal unless exactly 3 digits follow. */
function normaliseValue(text: string): string {
  const seps = text.match(/[.,]+/g) ?? [];
  let decimal = '.';
  let thousands = ',';
  if (new Set(seps).size > 1) {
    decimal = seps[seps.length - 1]!;
    thousands = seps[0]!;
  } else if (seps.length > 0) {
    const last = seps[seps.length - 1]!;
    if (text.split(last).pop()!.length !== 3) {
      decimal = last;
      thousands = last === '.' ? ',' : '.';
    }
  }
  return text.split(thousands).join('').split(decimal).join('.');
}

/**
 * `cost_details.values`: each cost as a number string with `.` as decimal point (`"12,50"` → `"12.50"`, `"1,000"` →
 * `"1000"`), a text without numbers by its sanitized title (`"free"`), sorted numerically.
 */
export function costValues(raw: readonly string[]): string[] {
  const values = eventCosts(raw).map((e) => {
    const v = normaliseValue(e.text);
    return isNumeric(v) ? v : e.key;
  });
  const num = (v: string) => (isNumeric(v) ? Number(v) : 0);
  return values.sort((a, b) => num(a) - num(b));
}

/** The `cost` and `cost_details.values` of one stored cost. */
export interface CostBody {
  cost: string;
  values: string[];
}
const MEMO_LIMIT = 4096;
const memo = new Map<string, CostBody>();

/**
 * `formatCost` and `costValues` of a stored cost (its JSON text), remembered: the same few costs recur across
 * thousands of events, and parsing one costs tens of microseconds, a large part of building a list body.
 */
export function costBody(stored: string | null, own: ParsedCost, site: CurrencyDefault): CostBody {
  if (stored === null) return { cost: '', values: [] };
  const key = `${stored}\u0000${own.symbol}\u0000${own.position}\u0000${site.symbol}\u0000${site.position}`;
  let hit = memo.get(key);
  if (hit === undefined) {
    const raw = JSON.parse(stored) as string[];
    hit = { cost: formatCost(raw, own, site), values: costValues(raw) };
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(key, hit);
  }
  return { cost: hit.cost, values: [...hit.values] };
}
