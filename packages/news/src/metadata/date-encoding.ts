/**
 * Crawl and publish dates as two small integers instead of ~22 bytes of text: the seconds of the written wall-clock
 * time read as UTC, and a form code holding the fraction digits and the zone suffix exactly as written, so the
 * string comes back byte for byte. A date in any other shape stays text.
 */
export interface EncodedDate {
  readonly seconds: number;
  /** (fraction value × 7 + fraction digits 0…6) × 128 + zone (0: none, 1: `Z`, 2…114: offset in quarter hours + 58). */
  readonly form: number;
}

const DATE = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}:\d{2})?$/;
const ZONE_BASE = 58;

/** The encoded form of `YYYY-MM-DDTHH:MM:SS[.f{1,6}][Z|±HH:MM]` (years 1000–9999, real calendar days), else undefined. */
export function encodeDate(s: string): EncodedDate | undefined {
  const m = DATE.exec(s);
  if (!m || s < '1000') return undefined;
  const ms = Date.parse(`${m[1]!}Z`);
  if (Number.isNaN(ms)) return undefined;
  const digits = m[2]?.length ?? 0;
  const zone = m[3] === undefined ? 0 : m[3] === 'Z' ? 1 : zoneCode(m[3]);
  if (zone === undefined) return undefined;
  const encoded = { seconds: ms / 1000, form: ((digits === 0 ? 0 : Number(m[2])) * 7 + digits) * 128 + zone };
  // Date.parse rolls some impossible days over (Feb 30); only a date that comes back as written is encoded.
  return decodeDate(encoded.seconds, encoded.form) === s ? encoded : undefined;
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const ZONES = Array.from({ length: 115 }, (_, code) => (code === 0 ? '' : code === 1 ? 'Z' : zoneText(code)));
// Day prefixes (`YYYY-MM-DDT`) by day number: a page of articles shares few days, and toISOString per date cost
// ~0.8 µs, half of a v2 row's decoding. Cleared when large so a hostile spread of dates cannot grow it without bound.
const dayPrefixes = new Map<number, string>();

/** The date string an EncodedDate was made from. */
export function decodeDate(seconds: number, form: number): string {
  const day = Math.floor(seconds / 86400);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (dayPrefixes.size >= 100_000) dayPrefixes.clear();
    prefix = new Date(day * 86_400_000).toISOString().slice(0, 11);
    dayPrefixes.set(day, prefix);
  }
  const t = seconds - day * 86400;
  const digits = Math.floor(form / 128) % 7;
  const fraction = digits === 0 ? '' : `.${String(Math.floor(form / 896)).padStart(digits, '0')}`;
  return `${prefix}${TWO_DIGITS[Math.floor(t / 3600)]!}:${TWO_DIGITS[Math.floor(t / 60) % 60]!}:${TWO_DIGITS[t % 60]!}${fraction}${ZONES[form % 128]!}`;
}

function zoneCode(z: string): number | undefined {
  const minutes = Number(z.slice(1, 3)) * 60 + Number(z.slice(4, 6));
  // `-00:00` would come back as `+00:00`; odd offsets and minutes ≥ 60 have no code.
  if (z === '-00:00' || Number(z.slice(4, 6)) >= 60 || minutes % 15 !== 0 || minutes > 14 * 60) return undefined;
  return (z[0] === '-' ? -minutes : minutes) / 15 + ZONE_BASE;
}

function zoneText(code: number): string {
  const q = code - ZONE_BASE;
  const minutes = Math.abs(q) * 15;
  return `${q < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** The same decoding in SQL, for the store's `articles` view (`t` seconds or text, `f` form or NULL). */
export function dateSql(t: string, f: string): string {
  const zone = `(${f} % 128)`;
  const digits = `((${f} / 128) % 7)`;
  return `CASE WHEN ${f} IS NULL THEN ${t} ELSE strftime('%Y-%m-%dT%H:%M:%S', ${t}, 'unixepoch')
    || CASE WHEN ${digits} = 0 THEN '' ELSE '.' || printf('%0*d', ${digits}, ${f} / 896) END
    || CASE WHEN ${zone} = 0 THEN '' WHEN ${zone} = 1 THEN 'Z' ELSE printf('%s%02d:%02d', CASE WHEN ${zone} < ${ZONE_BASE} THEN '-' ELSE '+' END,
      abs(${zone} - ${ZONE_BASE}) * 15 / 60, abs(${zone} - ${ZONE_BASE}) * 15 % 60) END END`;
}
