/** The shapes of one article's metadata and of a crawl year's metadata store, as every reader of a release sees them. */

/** Every metadata field of one article (spec §2, v1 and v2). Absent values are null. */
export interface ArticleMetadata {
  readonly url: string | null;
  readonly title: string | null;
  readonly author: string | null;
  readonly sitename: string | null;
  readonly hostname: string | null;
  readonly warc_source: string | null;
  readonly warc_record_id: string | null;
  readonly warc_date: string | null;
  readonly publish_date: string | null;
  /** v1's `date`: the publish date when known, else the crawl date. */
  readonly date: string | null;
  readonly date_source: string | null;
  readonly language: string | null;
  readonly lang: string | null;
  readonly country_tld: string | null;
  readonly country: string | null;
  readonly country_source: string | null;
  readonly country_confidence: string | null;
  readonly iptc_topic: string | null;
  /** Classification scores where the input carries them (e.g. `{"iptc_topic": 0.91}`), else null. */
  readonly scores: Readonly<Record<string, number>> | null;
  /** xxHash64 (seed 0) of the article's UTF-8 bytes, unsigned decimal string. */
  readonly text_xxhash64: string;
}

/** The metadata fields a v2 filter compares. */
export type FilterableField = 'language' | 'lang' | 'iptc_topic' | 'hostname' | 'sitename' | 'country';
/** The filterable fields of one article. */
export type FilterFields = Pick<ArticleMetadata, FilterableField>;

export interface MetadataStore {
  readonly year: string;
  readonly docCount: number;
  /** Metadata of one article; undefined when docIx is outside [0, docCount). */
  get(docIx: number): ArticleMetadata | undefined;
  /**
   * The fields a filter compares, of one article; undefined when docIx is outside [0, docCount). Cheaper than `get`
   * where the store keeps them apart (format 3: no block is decompressed), so filtered scans ask this.
   */
  filterFields(docIx: number): FilterFields | undefined;
  /** Metadata of many articles, in the order asked. */
  getMany(docIxs: readonly number[]): (ArticleMetadata | undefined)[];
  /** Whether any article has a non-empty value in this field (what info's filter support rests on). */
  hasValues(field: FilterableField): boolean;
  close(): void;
}
