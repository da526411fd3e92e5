import type { ApiClient } from '../api/api-client.ts';
import type { QueryArticle, QuerySearchResponse } from '../api/types.ts';
import { tableCsv, tableXlsx } from '../export/analysis-export.ts';
import { exportContextOf, exportFileName } from '../export/export-data.ts';
import { QUERY_EXPORT_MAX, queryArticlesTable } from '../export/query-export.ts';
import { XLSX_TYPE } from '../export/xlsx.ts';
import type { SearchState } from '../search/url-state.ts';
import { downloadText, formatCount, h } from '../view/dom.ts';

/** Rows per search request while exporting: the API's largest page. */
const EXPORT_PAGE = 100;

export interface QueryExportContext {
  readonly api: ApiClient;
  readonly state: SearchState;
  readonly dedupe: 'none' | 'exact' | 'near';
  /** The answer on screen: the export must come from the same release and count what it shows. */
  readonly answer: QuerySearchResponse;
  /** A failure the page reports in general terms, with Retry. */
  onError(e: unknown, retry: () => void): void;
}

/**
 * "Matching articles (CSV / XLSX)" of a query-language search (with dedupe: "Matching stories"): every matching
 * article, or story, up to QUERY_EXPORT_MAX, paged from `POST /api/v2/search` and saying how far it got.
 */
export function queryExportButtons(ctx: QueryExportContext): HTMLElement {
  const noun = ctx.dedupe === 'none' ? 'articles' : 'stories';
  const total = ctx.answer.stories ?? ctx.answer.articles;
  const wanted = Math.min(total, QUERY_EXPORT_MAX);
  const status = h('span', { class: 'muted query-export-status', 'aria-live': 'polite' });
  const load = async (): Promise<QueryArticle[]> => {
    const rows: QueryArticle[] = [];
    let cursor: string | null = null;
    do {
      const page: QuerySearchResponse = await ctx.api.search({
        ...ctx.state,
        pageSize: Math.min(EXPORT_PAGE, wanted - rows.length),
        ...(ctx.dedupe === 'none' ? {} : { dedupe: ctx.dedupe }),
        cursor,
      });
      if (page.index_version !== ctx.answer.index_version)
        throw new Error('The corpus was updated since this search; search again to export it.');
      rows.push(...page.page);
      cursor = page.next_cursor;
      status.textContent = `Loading ${formatCount(rows.length)} of ${formatCount(wanted)} ${noun}…`;
    } while (cursor !== null && rows.length < wanted);
    return rows.slice(0, wanted);
  };
  const button = (ext: 'csv' | 'xlsx'): HTMLButtonElement =>
    h(
      'button',
      {
        type: 'button',
        class: 'ghost',
        'data-export': `query-${noun}-${ext}`,
        onclick: async (ev: Event) => {
          const self = ev.currentTarget as HTMLButtonElement;
          self.disabled = true;
          try {
            const rows = await load();
            const table = queryArticlesTable(
              exportContextOf(ctx.state, ctx.answer.index_version),
              {
                canonical: ctx.answer.query,
                dedupe: ctx.dedupe,
                exact: ctx.answer.exact,
                articles: ctx.answer.articles,
                stories: ctx.answer.stories ?? null,
              },
              rows,
            );
            const file = exportFileName(`matching-${noun}`, ctx.state.query, ext);
            if (ext === 'csv') downloadText(file, tableCsv(table), 'text/csv;charset=utf-8');
            else downloadText(file, await tableXlsx(table), XLSX_TYPE);
            status.textContent =
              total > QUERY_EXPORT_MAX
                ? `Exported the first ${formatCount(QUERY_EXPORT_MAX)} of ${formatCount(total)} ${noun} (release order).`
                : `Exported ${formatCount(rows.length)} ${noun}.`;
          } catch (e) {
            status.textContent = 'The export could not be made.';
            ctx.onError(e, () => self.click());
          } finally {
            self.disabled = false;
          }
        },
      },
      `Matching ${noun} (${ext.toUpperCase()})`,
    );
  return h('div', { class: 'toolbar query-export' }, button('csv'), button('xlsx'), status);
}
