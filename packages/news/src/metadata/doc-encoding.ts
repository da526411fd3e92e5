import type { ArticleMetadata } from './types.ts';
import { decodeDate, encodeDate } from './date-encoding.ts';
import { DOC_COLUMNS, PROFILE_COLUMNS } from './schema.ts';

/** Values of PROFILE_COLUMNS for one article, in order. */
export type ProfileValues = (string | null)[];
/** Values of DOC_COLUMNS after `profile`, in order. */
export type DocValues = (string | number | bigint | Buffer | null)[];

const RECORD_ID = /^<urn:uuid:([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})>$/;
const URL_PREFIX = /^(https?:\/\/[^/?#]+)/;

/**
 * Splits one article's metadata into its profile (fields that repeat per source, feed and topic) and its own
 * compact values; the store's `articles` view turns them back into exactly the strings given.
 * @example encodeArticle(m).profile[PROFILE_COLUMNS.indexOf('hostname')]
 */
export function encodeArticle(m: ArticleMetadata): { profile: ProfileValues; doc: DocValues } {
  // The url's `scheme://host` goes to the profile only when it is the article's own hostname (then it repeats).
  const prefix = m.url === null || m.hostname === null ? undefined : URL_PREFIX.exec(m.url)?.[1];
  const urlPrefix = prefix !== undefined && prefix.slice(prefix.indexOf('//') + 2) === m.hostname ? prefix : null;
  const profile = PROFILE_COLUMNS.map((c) => (c === 'url_prefix' ? urlPrefix : m[c]));
  const warc = m.warc_date === null ? undefined : encodeDate(m.warc_date);
  // publish_date 0 without a form: the same as warc_date (synthesised corpora, and crawls that only know one date).
  const samePublish = m.publish_date !== null && m.publish_date === m.warc_date;
  const publish = m.publish_date === null || samePublish ? undefined : encodeDate(m.publish_date);
  const doc = DOC_COLUMNS.filter((c) => c !== 'profile').map((c): DocValues[number] => {
    switch (c) {
      case 'url':
        return urlPrefix === null ? m.url : m.url!.slice(urlPrefix.length);
      case 'warc_record_id':
        return encodeRecordId(m.warc_record_id);
      case 'warc_date':
        return warc?.seconds ?? m.warc_date;
      case 'warc_form':
        return warc?.form ?? null;
      case 'publish_date':
        return samePublish ? 0 : (publish?.seconds ?? m.publish_date);
      case 'publish_form':
        return publish?.form ?? null;
      case 'text_xxhash64':
        return BigInt.asIntN(64, BigInt(m.text_xxhash64));
      case 'scores':
        return m.scores ? JSON.stringify(m.scores) : null;
      default:
        return m[c];
    }
  });
  return { profile, doc };
}

/** A `<urn:uuid:…>` id in lower-case hex as its 16 bytes; any other form stays text. */
function encodeRecordId(id: string | null): Buffer | string | null {
  const parts = id === null ? null : RECORD_ID.exec(id);
  return parts ? Buffer.from(parts.slice(1).join(''), 'hex') : id;
}

/** A v2 `docs` row selected as V2_READ_COLUMNS. */
export type V2Row = (string | number | Buffer | null)[];
const PC = Object.fromEntries(PROFILE_COLUMNS.map((c, i) => [c, i])) as Record<
  (typeof PROFILE_COLUMNS)[number],
  number
>;

/**
 * The metadata of a v2 `docs` row and its profile's values, the inverse of encodeArticle.
 * @example decodeArticle(profileValues, db.prepare(`SELECT ${V2_READ_COLUMNS.join(', ')} FROM docs d …`).raw().get(0))
 */
export function decodeArticle(profile: ProfileValues, r: V2Row): ArticleMetadata {
  const s = (c: keyof typeof PC): string | null => profile[PC[c]]!;
  const [, title, url, recordId, warcT, warcF, publishT, publishF, hash, author, scores] = r;
  const urlPrefix = s('url_prefix');
  const warcDate = warcF === null ? (warcT as string | null) : decodeDate(warcT as number, warcF as number);
  const publishDate =
    publishF === null
      ? publishT === 0
        ? warcDate
        : (publishT as string | null)
      : decodeDate(publishT as number, publishF as number);
  return {
    url: urlPrefix === null ? (url as string | null) : urlPrefix + (url as string),
    title: title as string | null,
    author: author as string | null,
    sitename: s('sitename'),
    hostname: s('hostname'),
    warc_source: s('warc_source'),
    warc_record_id: Buffer.isBuffer(recordId) ? decodeRecordId(recordId) : (recordId as string | null),
    warc_date: warcDate,
    publish_date: publishDate,
    date: publishDate ?? warcDate,
    date_source: s('date_source'),
    language: s('language'),
    lang: s('lang'),
    country_tld: s('country_tld'),
    country: s('country'),
    country_source: s('country_source'),
    country_confidence: s('country_confidence'),
    iptc_topic: s('iptc_topic'),
    scores: scores === null ? null : (JSON.parse(scores as string) as Record<string, number>),
    text_xxhash64: hash as string,
  };
}

function decodeRecordId(b: Buffer): string {
  const h = b.toString('hex');
  return `<urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}>`;
}
