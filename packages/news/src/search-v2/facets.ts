import type { ArticleMetadata, ReleaseIndex } from '../release/types.ts';
import { createFilterKeyCache } from './filter-key.ts';
import type { FacetField, FacetValue } from './types.ts';

/** The metadata fields facets read (what a worker sends the gateway for an estimate spread over several workers). */
export type FacetMetadata = Pick<
  ArticleMetadata,
  'language' | 'lang' | 'iptc_topic' | 'hostname' | 'sitename' | 'country'
>;

export function facetMetadataOf(m: ArticleMetadata): FacetMetadata {
  return {
    language: m.language,
    lang: m.lang,
    iptc_topic: m.iptc_topic,
    hostname: m.hostname,
    sitename: m.sitename,
    country: m.country,
  };
}

/** The facet groups of an index: `country` only where the release has an attribution table. */
export function facetFieldsOf(index: Pick<ReleaseIndex, 'hasCountryAttribution'>): FacetField[] {
  return ['language', 'lang', 'topic', 'source', ...(index.hasCountryAttribution ? ['country' as const] : [])];
}

/** The labels each facet counts, the same labels the filters of the same name compare (filters.ts). */
const FACET_LABELS: Readonly<Record<FacetField, (m: FacetMetadata) => readonly (string | null)[]>> = {
  language: (m) => [m.language],
  lang: (m) => [m.lang],
  topic: (m) => (m.iptc_topic === null ? [] : m.iptc_topic.split(';').map((t) => t.trim())),
  // Both names, as the `sources` filter compares either: a listed value counts what clicking it selects (issue 29 bug 4).
  source: (m) => [m.sitename, m.hostname],
  country: (m) => [m.country],
};

/**
 * Facets that list only some of the labels they count: a source is listed by its site name (the outlet's name, one
 * value for `DER STANDARD` with or without a host name), by its host name only where no article of it has a site name.
 */
const SHOWN_LABEL: Readonly<Partial<Record<FacetField, (m: FacetMetadata) => string | null>>> = {
  source: (m) => (m.sitename !== null && m.sitename !== '' ? m.sitename : m.hostname),
};

const labelKey = createFilterKeyCache();

/** `label` is the spelling shown: the first one seen as a shown label, else the first seen. */
interface Tally {
  label: string;
  occurrences: number;
  articles: number;
  draws: number;
  shown: boolean;
}

/**
 * Counts facet values of matching articles. Values equal under the filters' comparison (NFKC + case folding) are
 * one value, shown as first seen, so clicking a value as a filter selects exactly what was counted. Weights let
 * the same accumulator serve exact counts (occurrences per article, 1 article) and samples (1 draw, 1/k article).
 */
export class FacetCounter {
  readonly #fields: readonly FacetField[];
  readonly #tallies = new Map<FacetField, Map<string, Tally>>();
  readonly #shownOnly: boolean;

  /**
   * `shownOnly`: count each article under its shown label only (a source under its site name, else its host name).
   * Answers that workers merge by value need it: a label counted but not shown (a host name behind a site name) is
   * not in a worker's list, so its counts could not be added up across workers. `search` facets use it; `estimate`
   * facets (merged from metadata rows, not values) count what the `sources` filter selects (issue 29 bug 4).
   */
  constructor(fields: readonly FacetField[], { shownOnly = false }: { shownOnly?: boolean } = {}) {
    this.#fields = fields;
    this.#shownOnly = shownOnly;
    for (const f of fields) this.#tallies.set(f, new Map());
  }

  add(metadata: FacetMetadata, occurrences: number, articles: number): void {
    for (const field of this.#fields) {
      const tallies = this.#tallies.get(field) as Map<string, Tally>;
      // A label listed twice in one record (`grain;grain`) counts once for the article.
      const seen = new Set<string>();
      const shownLabel = SHOWN_LABEL[field]?.(metadata);
      const shownKey =
        shownLabel === undefined || shownLabel === null || shownLabel === '' ? null : labelKey(shownLabel);
      const labels = this.#shownOnly && shownLabel !== undefined ? [shownLabel] : FACET_LABELS[field](metadata);
      for (const label of labels) {
        if (label === null || label === '') continue;
        const key = labelKey(label);
        if (seen.has(key)) continue;
        seen.add(key);
        const shown = shownLabel === undefined || key === shownKey;
        const t = tallies.get(key);
        if (t === undefined) tallies.set(key, { label, occurrences, articles, draws: 1, shown });
        else {
          t.occurrences += occurrences;
          t.articles += articles;
          t.draws++;
          if (shown && !t.shown) {
            t.shown = true;
            t.label = label;
          }
        }
      }
    }
  }

  /**
   * Adds counted values of the same fields (another worker's answer for other shards): equal keys add up, so the
   * merged counts are those one counter over all the articles gives.
   */
  merge(field: FacetField, value: FacetValue): void {
    const tallies = this.#tallies.get(field);
    if (tallies === undefined) return;
    const key = labelKey(value.value);
    const t = tallies.get(key);
    // A worker lists only shown values, so a merged value is shown.
    if (t === undefined)
      tallies.set(key, {
        label: value.value,
        occurrences: value.occurrences,
        articles: value.articles,
        draws: value.observed,
        shown: true,
      });
    else {
      t.occurrences += value.occurrences;
      t.articles += value.articles;
      t.draws += value.observed;
      if (!t.shown) {
        t.shown = true;
        t.label = value.value;
      }
    }
  }

  /** Top `limit` values per field by occurrences, then articles, scaled by `scale` and rounded. */
  top(limit: number, scale: number): Record<string, FacetValue[]> {
    const out: Record<string, FacetValue[]> = {};
    for (const field of this.#fields) {
      const values = [...(this.#tallies.get(field) as Map<string, Tally>).values()].filter((t) => t.shown);
      values.sort((a, b) => b.occurrences - a.occurrences || b.articles - a.articles || (a.label < b.label ? -1 : 1));
      out[field] = values.slice(0, limit).map((t) => ({
        value: t.label,
        occurrences: Math.round(t.occurrences * scale),
        articles: Math.round(t.articles * scale),
        observed: t.draws,
      }));
    }
    return out;
  }
}
