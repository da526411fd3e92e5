import { MAX_CRAWL_YEAR, MIN_CRAWL_YEAR } from '../../corpus/index.ts';
import { BuildError } from '../errors.ts';

/** The crawl months one part of a release holds, from `news build --only-periods SPEC`. */
export interface PeriodSelection {
  /** The spec as given, recorded in the part manifest. */
  readonly spec: string;
  /** Years with at least one selected month, ascending (`YYYY`). */
  readonly years: readonly string[];
  /** Selected crawl months, ascending (`YYYY-MM`). */
  readonly months: readonly string[];
}

const ITEM = /^(\d{4})(?:-(\d{2}))?$/;

/** A point of the spec as a month index (year × 12 + month − 1), and whether it named a month or a year. */
interface Point {
  readonly first: number;
  readonly last: number;
  readonly monthly: boolean;
}

function parsePoint(text: string, spec: string): Point {
  const m = ITEM.exec(text);
  const year = Number(m?.[1]);
  const month = m?.[2] === undefined ? undefined : Number(m[2]);
  if (!m || year < MIN_CRAWL_YEAR || year > MAX_CRAWL_YEAR || (month !== undefined && (month < 1 || month > 12))) {
    throw invalid(
      spec,
      `${JSON.stringify(text)} is not a crawl period (YYYY or YYYY-MM, years ${MIN_CRAWL_YEAR}–${MAX_CRAWL_YEAR})`,
    );
  }
  return month === undefined
    ? { first: year * 12, last: year * 12 + 11, monthly: false }
    : { first: year * 12 + month - 1, last: year * 12 + month - 1, monthly: true };
}

/**
 * Parses `--only-periods`: comma-separated periods (`2019`, `2019-03`) and inclusive ranges (`2019..2021`,
 * `2019-01..2019-06`). With `wholeYears` (yearly shards: a shard is a year) a spec that selects only some months of a
 * year is refused here, before any input is read (src/release/DESIGN.md, "Distributed builds").
 * @example parsePeriodSelection('2019-11..2020-01').years // ['2019', '2020']
 */
export function parsePeriodSelection(spec: string, wholeYears = false): PeriodSelection {
  const months = new Set<number>();
  for (const raw of spec.split(',')) {
    const item = raw.trim();
    if (item === '') throw invalid(spec, 'it has an empty item');
    const [a, b, extra] = item.split('..');
    if (extra !== undefined) throw invalid(spec, `${JSON.stringify(item)} has more than one ".."`);
    const from = parsePoint(a as string, spec);
    const to = b === undefined ? from : parsePoint(b, spec);
    if (from.monthly !== to.monthly)
      throw invalid(
        spec,
        `${JSON.stringify(item)} mixes a year and a month; write both ends alike (2019..2020 or 2019-01..2020-12)`,
      );
    if (to.last < from.first) throw invalid(spec, `${JSON.stringify(item)} ends before it starts`);
    for (let m = from.first; m <= to.last; m++) months.add(m);
  }
  const years = [...new Set([...months].map((m) => Math.floor(m / 12)))].sort((x, y) => x - y);
  for (const year of wholeYears ? years : []) {
    const missing = Array.from({ length: 12 }, (_, i) => year * 12 + i).filter((m) => !months.has(m));
    if (missing.length > 0) {
      throw new BuildError(
        'invalid_option',
        `--only-periods ${spec} selects only some months of ${year} (not ${missing.map(monthId).join(', ')}); ` +
          `with --period year a shard is a whole year, so a part must hold whole years: select ${year} (or ${year}-01..${year}-12)`,
      );
    }
  }
  return { spec, years: years.map((y) => String(y)), months: [...months].sort((a, b) => a - b).map(monthId) };
}

const monthId = (m: number): string => `${Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;

function invalid(spec: string, why: string): BuildError {
  return new BuildError(
    'invalid_option',
    `--only-periods ${JSON.stringify(spec)}: ${why}; use e.g. 2019,2021..2023 or 2019-01..2019-12`,
  );
}
