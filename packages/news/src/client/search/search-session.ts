import { StaleReleaseError, type ApiClient } from '../api/api-client.ts';
import type { FindResponse, GetDocResponse } from '../api/types.ts';
import type { LoadedOccurrence } from '../export/export-data.ts';
import { ArticleSet, type MergedArticle } from './article-merge.ts';
import {
  EXAMINE_BUDGET,
  isExhausted,
  planPages,
  remainingRanks,
  segmentsOf,
  startCursor,
  type Cursor,
  type Segment,
} from './examine-plan.ts';
import type { SearchState } from './url-state.ts';
import { SNIPPET_CONTEXT_BYTES, snippetCuts, snippetText } from './snippet.ts';

/**
 * One search against one corpus release: find, then examinations of at most 1,000 ranks, merged into articles.
 * Continuations carry find's release; a 409 surfaces as `StaleReleaseError` and the session stops (`stale`).
 */
export class SearchSession {
  readonly articles = new ArticleSet();
  /** The occurrences whose context was loaded and shown, in load order (the "loaded sample"). */
  readonly sample: LoadedOccurrence[] = [];
  readonly segments: readonly Segment[];
  private cursor: Cursor;
  private readonly snippets = new Map<string, Promise<GetDocResponse>>();
  stale: StaleReleaseError | null = null;

  private constructor(
    private readonly api: ApiClient,
    readonly state: SearchState,
    readonly found: FindResponse,
  ) {
    this.segments = segmentsOf(found);
    this.cursor = startCursor(this.segments);
  }

  static async start(api: ApiClient, state: SearchState): Promise<SearchSession> {
    const found = await api.find({
      query: state.query,
      index: state.index,
      yearMin: state.yearMin,
      yearMax: state.yearMax,
      matching: state.matching,
    });
    return new SearchSession(api, state, found);
  }

  get release(): string {
    return this.found.index_version;
  }

  get remaining(): number {
    return remainingRanks(this.segments, this.cursor);
  }

  get done(): boolean {
    return isExhausted(this.segments, this.cursor);
  }

  /**
   * Examines the next (at most) 1,000 ranks; returns the articles that were new. A step spans one page per shard
   * touched (a rare phrase: dozens), so the pages are asked for together; each is merged, in find's order, as soon
   * as it and those before it are in, and `onPage` gets the articles it added (the page shows the first cards
   * while later pages are on their way). After a failure the cursor stays behind the last page merged.
   */
  async examineNext(onPage?: (added: MergedArticle[]) => void): Promise<MergedArticle[]> {
    const { pages, next } = planPages(this.segments, this.cursor, EXAMINE_BUDGET);
    const answers = pages.map((page) =>
      this.guard(
        this.api.documents({
          index: this.state.index,
          query: this.state.query,
          shardId: page.shardId,
          rankFrom: page.rankFrom,
          rankTo: page.rankTo,
          version: this.release,
          filters: this.state.filters,
          matching: this.state.matching,
        }),
      ),
    );
    // A later page may fail while an earlier one is awaited; its failure is raised in order below.
    for (const a of answers) a.catch(() => {});
    const added: MergedArticle[] = [];
    for (const [i, page] of pages.entries()) {
      const fresh = this.articles.addPage(await answers[i]!);
      added.push(...fresh);
      this.cursor = { segment: this.segments.findIndex((s) => s.shardId === page.shardId), rank: page.rankTo };
      onPage?.(fresh);
    }
    this.cursor = next;
    return added;
  }

  /** The context of an article's first examined occurrence; loaded once and then part of the sample. */
  snippet(article: MergedArticle): Promise<GetDocResponse> {
    let p = this.snippets.get(article.key);
    if (p === undefined) {
      p = this.guard(
        this.api.getDoc({
          index: this.state.index,
          query: this.state.query,
          shardId: article.firstShardId,
          rank: article.firstRank,
          version: this.release,
          maxCtxLen: SNIPPET_CONTEXT_BYTES,
          matching: this.state.matching,
        }),
      ).then((doc) => {
        // The sample records the snippet as the card shows it: whole words, an ellipsis where the article goes on.
        const snippet = snippetText(doc.spans, snippetCuts(doc, new TextEncoder().encode(this.state.query).length));
        this.sample.push({
          shardId: doc.shard_id,
          rank: doc.rank,
          year: doc.year,
          docIx: doc.doc_ix,
          snippet,
          metadata: doc.metadata,
        });
        return doc;
      });
      p.catch(() => this.snippets.delete(article.key));
      this.snippets.set(article.key, p);
    }
    return p;
  }

  /** The whole article (get_doc full_text); the API refuses articles over 1 MiB with `article_too_large`. */
  fullText(article: MergedArticle): Promise<GetDocResponse> {
    return this.guard(
      this.api.getDoc({
        index: this.state.index,
        query: this.state.query,
        shardId: article.firstShardId,
        rank: article.firstRank,
        version: this.release,
        maxCtxLen: 1,
        fullText: true,
        matching: this.state.matching,
      }),
    );
  }

  private async guard<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      if (e instanceof StaleReleaseError) this.stale = e;
      throw e;
    }
  }
}
