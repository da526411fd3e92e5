import type { MatchingOptions } from '../search/matching-options.ts';
import { DEFAULT_MATCHING, matchingFields } from '../search/matching-options.ts';
import type { ContextsResponse, TimelineResponse } from './research-types.ts';
import type { AnalysisCalls } from './analysis-types.ts';
import { callSlots } from './call-slots.ts';
import type {
  DocumentsResponse,
  EstimateResponse,
  FilterLists,
  FindResponse,
  GetDocResponse,
  InfoResponse,
  QueryCopiesResponse,
  QuerySearchResponse,
} from './types.ts';

/** Any answer other than 2xx. `code` is the API's stable error code when it sent one. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string | null,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** 409 `stale_index_version`: the corpus release changed since `find`; the search must be rerun. */
export class StaleReleaseError extends ApiError {
  constructor(
    readonly expected: string,
    readonly current: string | null,
    body: unknown,
  ) {
    super(
      409,
      'stale_index_version',
      `The corpus was updated (release ${expected} → ${current ?? 'a newer one'}).`,
      body,
    );
  }
}

/**
 * 503: the search worker is busy, restarting or not serving this release. The page says so in plain words and
 * offers Retry; the client has already retried as often as `Retry-After` allowed.
 */
export class ServiceUnavailableError extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    body: unknown,
  ) {
    const code = (body as { code?: unknown } | null)?.code;
    super(
      503,
      typeof code === 'string' ? code : 'unavailable',
      'The search service is busy or restarting and could not answer just now. Please try again in a moment.',
      body,
    );
  }
}

/** Automatic retries of a 503 before the page is told, each after the server's Retry-After. */
export const UNAVAILABLE_RETRIES = 2;
/** A Retry-After longer than this is not waited for automatically; the reader can press Retry. */
const MAX_AUTOMATIC_WAIT_S = 5;

/** Automatic retries of a 429 (this page had too many expensive calls under way), each after its Retry-After. */
export const RATE_LIMITED_RETRIES = 5;
/**
 * Calls this page keeps in flight at once, below the gateway's default of 6 expensive calls per client, so that a
 * second tab of the same reader still gets through; get_doc and info (cheap) do not wait for them.
 */
export const PAGE_CALL_SLOTS = 4;

/** Retry-After in seconds (delta form; an HTTP date or nonsense counts as 1 s). */
export function retryAfterSeconds(header: string | null): number {
  const n = header === null ? NaN : Number(header.trim());
  return Number.isFinite(n) && n >= 0 ? n : 1;
}

export interface SearchParams {
  readonly query: string;
  readonly index: string;
  readonly yearMin: number | null;
  readonly yearMax: number | null;
  /** Defaults to the API's: case-sensitive, any substring. */
  readonly matching?: MatchingOptions;
}

/** Only the filter lists that have values, as request fields. */
function filterFields(filters: FilterLists): Partial<Record<keyof FilterLists, readonly string[]>> {
  return Object.fromEntries(Object.entries(filters).filter(([, v]) => (v as string[]).length > 0));
}

/**
 * A search's selection as the body fields of the calls that take a query (collocations, ngrams, estimate…): the
 * query, index, years, matching options and the filters that have values.
 */
export function selectionFields(p: SearchParams & { filters: FilterLists }) {
  return {
    query: p.query,
    index: p.index,
    year_min: p.yearMin,
    year_max: p.yearMax,
    ...matchingFields(p.matching ?? DEFAULT_MATCHING),
    ...filterFields(p.filters),
  };
}

/** The body fields of a query-language call (search and its copies): the query in either form and the selection. */
function queryFields(p: SearchParams & { filters: FilterLists; queryTree?: unknown }) {
  return {
    ...(p.queryTree === undefined ? { query: p.query } : { query_tree: p.queryTree }),
    index: p.index,
    year_min: p.yearMin,
    year_max: p.yearMax,
    ...matchingFields(p.matching ?? DEFAULT_MATCHING),
    ...filterFields(p.filters),
  };
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Turns an error body into one readable line: v2's `detail` string, or the first validation item's message. */
export function describeErrorBody(status: number, body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail) && detail.length > 0) {
    const first = detail[0] as { msg?: unknown; loc?: unknown };
    const where = Array.isArray(first.loc) ? first.loc.filter((p) => p !== 'body').join('.') : '';
    return `${where ? `${where}: ` : ''}${String(first.msg ?? 'invalid request')}`;
  }
  return `The server answered ${status}.`;
}

/** The wire fields of the matching options; defaults are left out so requests stay as before. */
/** The v2 endpoints the page uses. Every continuation carries the release `find` returned. */
export class ApiClient {
  private readonly slots = callSlots(PAGE_CALL_SLOTS);

  constructor(
    private readonly base: string = '',
    private readonly fetchFn: Fetch = (i, o) => fetch(i, o),
  ) {}

  info(index?: string): Promise<InfoResponse> {
    const q = index === undefined ? '' : `?index=${encodeURIComponent(index)}`;
    return this.call<InfoResponse>('GET', `/api/v2/info${q}`);
  }

  /**
   * Occurrences, articles and text bytes per crawl period, for normalised charts; with `share`, also the articles
   * holding a match (several times the cost, so asked for only when the chart shows the share of articles).
   */
  timeline(p: SearchParams, opts: { share?: boolean } = {}): Promise<TimelineResponse> {
    return this.call<TimelineResponse>('POST', '/api/v2/timeline', {
      query: p.query,
      index: p.index,
      year_min: p.yearMin,
      year_max: p.yearMax,
      ...matchingFields(p.matching ?? DEFAULT_MATCHING),
      ...(opts.share === true ? { share: true } : {}),
    });
  }

  /** A concordance page: ≤ 1,000 ranks of one shard as left context, match, right context. */
  contexts(p: {
    index: string;
    query: string;
    shardId: string;
    rankFrom: number;
    rankTo: number;
    version: string;
    contextBytes?: number;
    matching?: MatchingOptions;
  }): Promise<ContextsResponse> {
    return this.call<ContextsResponse>(
      'POST',
      '/api/v2/contexts',
      {
        index: p.index,
        query: p.query,
        shard_id: p.shardId,
        rank_from: p.rankFrom,
        rank_to: p.rankTo,
        expected_index_version: p.version,
        context_bytes: p.contextBytes ?? 60,
        ...matchingFields(p.matching ?? DEFAULT_MATCHING),
      },
      p.version,
    );
  }

  find(p: SearchParams): Promise<FindResponse> {
    return this.call<FindResponse>('POST', '/api/v2/find', {
      query: p.query,
      index: p.index,
      year_min: p.yearMin,
      year_max: p.yearMax,
      ...matchingFields(p.matching ?? DEFAULT_MATCHING),
    });
  }

  /** Occurrences and articles passing the filters, with facets: exact, or sampled with 95% intervals. */
  estimate(p: SearchParams & { filters: FilterLists }): Promise<EstimateResponse> {
    return this.call<EstimateResponse>('POST', '/api/v2/estimate', {
      query: p.query,
      index: p.index,
      year_min: p.yearMin,
      year_max: p.yearMax,
      ...matchingFields(p.matching ?? DEFAULT_MATCHING),
      ...filterFields(p.filters),
    });
  }

  /**
   * Matching articles of a query in the query language (`POST /api/v2/search`): exact count, per-period counts and
   * a page of articles with their first match; `cursor` continues after the previous page. `queryTree` (the JSON
   * form) replaces the text form, e.g. to search a phrase as one term whatever characters it holds.
   */
  search(
    p: SearchParams & {
      filters: FilterLists;
      pageSize: number;
      cursor?: string | null;
      queryTree?: unknown;
      /** Count and list stories instead of articles (exact or near duplicates merged); left out: every article. */
      dedupe?: 'exact' | 'near';
    },
  ): Promise<QuerySearchResponse> {
    return this.call<QuerySearchResponse>('POST', '/api/v2/search', {
      ...queryFields(p),
      page_size: p.pageSize,
      ...(p.dedupe === undefined ? {} : { dedupe: p.dedupe }),
      ...(p.cursor ? { cursor: p.cursor } : {}),
    });
  }

  /**
   * A page of one story's copies (`POST /api/v2/search/copies`): its articles matching the same search (query,
   * years, filters, matching, dedupe) that the card's `copies` counts, by date; `cursor` continues.
   */
  searchCopies(
    p: SearchParams & {
      filters: FilterLists;
      queryTree?: unknown;
      dedupe: 'exact' | 'near';
      story: number;
      /** The search answer's release: its story ids mean nothing in another. */
      version: string;
      pageSize: number;
      cursor?: string | null;
    },
  ): Promise<QueryCopiesResponse> {
    return this.call<QueryCopiesResponse>(
      'POST',
      '/api/v2/search/copies',
      {
        ...queryFields(p),
        dedupe: p.dedupe,
        story: p.story,
        expected_index_version: p.version,
        page_size: p.pageSize,
        ...(p.cursor ? { cursor: p.cursor } : {}),
      },
      p.version,
    );
  }

  documents(p: {
    index: string;
    query: string;
    shardId: string;
    rankFrom: number;
    rankTo: number;
    version: string;
    filters: FilterLists;
    matching?: MatchingOptions;
  }): Promise<DocumentsResponse> {
    return this.call<DocumentsResponse>(
      'POST',
      '/api/v2/documents',
      {
        index: p.index,
        query: p.query,
        shard_id: p.shardId,
        rank_from: p.rankFrom,
        rank_to: p.rankTo,
        expected_index_version: p.version,
        ...matchingFields(p.matching ?? DEFAULT_MATCHING),
        ...filterFields(p.filters),
      },
      p.version,
    );
  }

  getDoc(p: {
    index: string;
    query: string;
    shardId: string;
    rank: number;
    version: string;
    maxCtxLen?: number;
    fullText?: boolean;
    matching?: MatchingOptions;
  }): Promise<GetDocResponse> {
    return this.call<GetDocResponse>(
      'POST',
      '/api/v2/get_doc',
      {
        index: p.index,
        query: p.query,
        shard_id: p.shardId,
        rank: p.rank,
        expected_index_version: p.version,
        max_ctx_len: p.maxCtxLen ?? 1000,
        full_text: p.fullText ?? false,
        ...matchingFields(p.matching ?? DEFAULT_MATCHING),
      },
      p.version,
    );
  }

  /**
   * A word analysis (collocations, continuations, frequency lists, keyness): one POST, typed by its path.
   * @example await api.analysis('/api/v2/ngrams', { index: 'news', query: 'oil' }) // { continuations: [...] }
   */
  analysis<P extends keyof AnalysisCalls>(
    path: P,
    body: AnalysisCalls[P]['request'],
  ): Promise<AnalysisCalls[P]['answer']> {
    return this.call<AnalysisCalls[P]['answer']>('POST', path, body);
  }

  private call<T>(method: 'GET' | 'POST', path: string, body?: unknown, version?: string): Promise<T> {
    const cheap = method === 'GET' || path === '/api/v2/get_doc';
    return cheap
      ? this.send<T>(method, path, body, version)
      : this.slots.run(() => this.send<T>(method, path, body, version));
  }

  private async send<T>(method: 'GET' | 'POST', path: string, body: unknown, version: string | undefined): Promise<T> {
    for (let unavailable = 0, limited = 0; ;) {
      let res: Response;
      try {
        res = await this.fetchFn(this.base + path, {
          method,
          headers:
            body === undefined
              ? { accept: 'application/json' }
              : { 'content-type': 'application/json', accept: 'application/json' },
          body: body === undefined ? null : JSON.stringify(body),
        });
      } catch (e) {
        throw new ApiError(
          0,
          'network',
          `The search service cannot be reached (${(e as Error).message}). Check the connection and try again.`,
          null,
        );
      }
      const parsed: unknown = await res.json().catch(() => null);
      if (res.ok) return parsed as T;
      const retryAfter = res.headers.get('retry-after');
      // 429: this address had too many expensive calls under way (another tab, or answers not yet counted as
      // finished); the call is a read, so it is asked again after Retry-After rather than shown as an error.
      if (
        res.status === 429 &&
        limited < RATE_LIMITED_RETRIES &&
        retryAfterSeconds(retryAfter) <= MAX_AUTOMATIC_WAIT_S
      ) {
        limited++;
        await new Promise((r) => setTimeout(r, retryAfterSeconds(retryAfter) * 1000));
        continue;
      }
      // A 503 with Retry-After may pass (worker busy or restarting); without it (e.g. no country table) it will not.
      if (res.status === 503 && retryAfter !== null) {
        // Every request is a read, so asking again after the server's Retry-After is safe.
        const wait = retryAfterSeconds(retryAfter);
        if (unavailable < UNAVAILABLE_RETRIES && wait <= MAX_AUTOMATIC_WAIT_S) {
          unavailable++;
          await new Promise((r) => setTimeout(r, wait * 1000));
          continue;
        }
        throw new ServiceUnavailableError(wait, parsed);
      }
      return this.refuse(res.status, parsed, version);
    }
  }

  private refuse(status: number, parsed: unknown, version: string | undefined): never {
    const code = (parsed as { code?: unknown } | null)?.code;
    if (status === 409 && code === 'stale_index_version') {
      const current = (parsed as { index_version?: unknown }).index_version;
      throw new StaleReleaseError(version ?? '', typeof current === 'string' ? current : null, parsed);
    }
    throw new ApiError(status, typeof code === 'string' ? code : null, describeErrorBody(status, parsed), parsed);
  }
}
