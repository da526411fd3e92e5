import { parseCrawlPeriod, type CrawlPeriod } from './crawl-period.ts';
import type { TextHasher } from './text-hash.ts';

/** The string metadata fields of spec §2 (v1 and v2) an input record may carry; each optional and nullable. */
export const METADATA_STRING_FIELDS = [
  'url',
  'title',
  'author',
  'sitename',
  'hostname',
  'warc_source',
  'warc_record_id',
  'warc_date',
  'publish_date',
  'date_source',
  'language',
  'lang',
  'country_tld',
  'country',
  'country_source',
  'country_confidence',
  'iptc_topic',
] as const;
export type MetadataStringField = (typeof METADATA_STRING_FIELDS)[number];

/** One validated input article. Everything inside the builder trusts this shape. */
export interface ArticleRecord {
  readonly text: string;
  /** The text's UTF-8 bytes, exactly what the shard indexes and the hash covers. */
  readonly textBytes: Buffer;
  readonly fields: Readonly<Record<MetadataStringField, string | null>>;
  /** Classification scores: a `scores` object of numbers, plus top-level numeric `<name>_score` fields. */
  readonly scores: Readonly<Record<string, number>> | null;
  /** xxHash64 (seed 0) of `textBytes`, unsigned decimal; verified when the input carried it. */
  readonly textXxhash64: string;
  readonly crawl: CrawlPeriod;
}

export type RecordResult =
  { readonly ok: true; readonly record: ArticleRecord } | { readonly ok: false; readonly reason: string };

const fail = (reason: string): RecordResult => ({ ok: false, reason });

/**
 * Validates one parsed input record (a JSON object or a Parquet row) into an {@link ArticleRecord}.
 * Unknown fields are ignored; a bad record yields the reason, for the `file:line: reason` message.
 */
export function validateArticleRecord(raw: unknown, hash: TextHasher): RecordResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('record is not a JSON object');
  const obj = raw as Record<string, unknown>;
  const text = obj['text'];
  if (text === undefined || text === null) return fail('missing "text"');
  if (typeof text !== 'string') return fail(`"text" must be a string, got ${describe(text)}`);
  if (text.length === 0) return fail('"text" is empty');

  const fields = {} as Record<MetadataStringField, string | null>;
  for (const name of METADATA_STRING_FIELDS) {
    const value = stringField(obj[name]);
    if (typeof value === 'object' && value !== null)
      return fail(`"${name}" must be a string or null, got ${value.got}`);
    fields[name] = value;
  }
  if (fields.warc_date === null) return fail('missing "warc_date" (the crawl date decides the shard)');
  const crawl = parseCrawlPeriod(fields.warc_date);
  if (typeof crawl === 'string') return fail(crawl);

  const scores = readScores(obj);
  if (typeof scores === 'string') return fail(scores);

  const textBytes = Buffer.from(text, 'utf8');
  const computed = hash(textBytes);
  const given = hashField(obj['text_xxhash64']);
  if (typeof given === 'object' && given !== null) return fail(given.error);
  if (given !== null && given !== computed) {
    return fail(`text_xxhash64 ${given} does not match the text (xxHash64 of its UTF-8 bytes is ${computed})`);
  }
  return { ok: true, record: { text, textBytes, fields, scores, textXxhash64: computed, crawl } };
}

function stringField(v: unknown): string | null | { got: string } {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') return v;
  // Parquet TIMESTAMP columns arrive as Date objects; keep them as ISO strings like the JSONL corpora.
  if (v instanceof Date && !Number.isNaN(v.getTime())) return v.toISOString();
  return { got: describe(v) };
}

function hashField(v: unknown): string | null | { error: string } {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') {
    if (!/^\d{1,20}$/.test(v) || BigInt(v) >= 2n ** 64n)
      return { error: `text_xxhash64 ${JSON.stringify(v.slice(0, 30))} is not an unsigned 64-bit decimal` };
    return BigInt(v).toString();
  }
  // Parquet INT64/UINT64 columns arrive as BigInt; a signed INT64 holds the same 64 bits.
  if (typeof v === 'bigint') return BigInt.asUintN(64, v).toString();
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && v >= 0) return String(v);
    return { error: 'text_xxhash64 is a JSON number that lost precision; write it as a decimal string' };
  }
  return { error: `text_xxhash64 must be a decimal string, got ${describe(v)}` };
}

function readScores(obj: Record<string, unknown>): Record<string, number> | null | string {
  const out: Record<string, number> = {};
  let any = false;
  const nested = obj['scores'];
  if (nested !== undefined && nested !== null) {
    if (typeof nested !== 'object' || Array.isArray(nested))
      return `"scores" must be an object of numbers, got ${describe(nested)}`;
    for (const [k, v] of Object.entries(nested)) {
      if (typeof v !== 'number' || !Number.isFinite(v))
        return `"scores.${k}" must be a finite number, got ${describe(v)}`;
      out[k] = v;
      any = true;
    }
  }
  for (const [k, v] of Object.entries(obj)) {
    if (!k.endsWith('_score') || v === null || v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v)) return `"${k}" must be a finite number, got ${describe(v)}`;
    out[k.slice(0, -'_score'.length)] = v;
    any = true;
  }
  return any ? out : null;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : typeof v;
}
