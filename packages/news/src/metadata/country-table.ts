import { readFile } from 'node:fs/promises';

/** The attribution of one hostname (CSV columns after `hostname`). */
export interface CountryAttribution {
  readonly country: string;
  readonly country_source: string | null;
  readonly country_confidence: string | null;
}

export interface CountryTable {
  readonly rows: number;
  /** Attribution for a hostname: exact (case-insensitive), else without a leading `www.`. */
  lookup(hostname: string | null): CountryAttribution | undefined;
  /** The table as the release stores it: header plus rows sorted by hostname, fields quoted. */
  toCsv(): string;
}

export class CountryTableError extends Error {
  override readonly name = 'CountryTableError';
}

const HEADER = ['hostname', 'country', 'country_source', 'country_confidence'];

/**
 * Reads a `hostname,country,country_source,country_confidence` CSV (header optional, RFC 4180 quoting).
 * @example (await loadCountryTable('countries.csv')).lookup('www.example.de')?.country
 */
export async function loadCountryTable(path: string): Promise<CountryTable> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new CountryTableError(
      `country table ${path} cannot be read (${(e as Error).message}); pass an existing CSV to --countries`,
    );
  }
  const map = new Map<string, CountryAttribution>();
  const records = parseCsv(text, path);
  records.forEach(({ line, cells }, i) => {
    if (i === 0 && cells[0]?.trim().toLowerCase() === 'hostname') return;
    if (cells.length === 1 && cells[0] === '') return;
    const [host, country, source, confidence] = cells.map((c) => c.trim());
    if (cells.length > HEADER.length || !host || !country) {
      throw new CountryTableError(`${path}:${line}: expected ${HEADER.join(',')} with hostname and country set`);
    }
    const key = normalizeHost(host);
    const value = { country, country_source: source || null, country_confidence: confidence || null };
    const prev = map.get(key);
    if (prev && JSON.stringify(prev) !== JSON.stringify(value)) {
      throw new CountryTableError(
        `${path}:${line}: hostname ${key} is listed twice with different values; keep one row`,
      );
    }
    map.set(key, value);
  });
  return {
    rows: map.size,
    lookup(hostname) {
      if (!hostname) return undefined;
      const key = normalizeHost(hostname);
      return map.get(key) ?? (key.startsWith('www.') ? map.get(key.slice(4)) : undefined);
    },
    toCsv() {
      const q = (v: string | null): string => `"${(v ?? '').replaceAll('"', '""')}"`;
      const lines = [...map.entries()]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([h, v]) => [h, v.country, v.country_source, v.country_confidence].map(q).join(','));
      return [HEADER.join(','), ...lines].join('\n') + '\n';
    },
  };
}

function normalizeHost(h: string): string {
  return h.toLowerCase().replace(/\.$/, '');
}

function parseCsv(text: string, path: string): { line: number; cells: string[] }[] {
  const out: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === '') quoted = true;
    else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      out.push({ line: start, cells });
      cells = [];
      cell = '';
      line++;
      start = line;
    } else cell += ch;
  }
  if (quoted) throw new CountryTableError(`${path}:${start}: unterminated quoted field`);
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    out.push({ line: start, cells });
  }
  return out;
}
