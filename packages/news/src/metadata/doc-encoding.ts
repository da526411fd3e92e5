import type { ArticleMetadata } from '../release/types.ts';
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
  const doc = DOC_COLUMNS.filter((c) => c !== 'profile').map((c): DocValues[number] => {
    switch (c) {
      case 'url': return urlPrefix === null ? m.url : m.url!.slice(urlPrefix.length);
      case 'warc_record_id': return encodeRecordId(m.warc_record_id);
      case 'publish_date': return m.publish_date !== null && m.publish_date === m.warc_date ? 0 : m.publish_date;
      case 'text_xxhash64': return BigInt.asIntN(64, BigInt(m.text_xxhash64));
      case 'scores': return m.scores ? JSON.stringify(m.scores) : null;
      default: return m[c];
    }
  });
  return { profile, doc };
}

/** A `<urn:uuid:…>` id in lower-case hex as its 16 bytes; any other form stays text. */
function encodeRecordId(id: string | null): Buffer | string | null {
  const parts = id === null ? null : RECORD_ID.exec(id);
  return parts ? Buffer.from(parts.slice(1).join(''), 'hex') : id;
}
