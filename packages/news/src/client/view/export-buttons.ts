import { tableCsv, tableXlsx, type AnalysisTable } from '../export/analysis-export.ts';
import { exportFileName } from '../export/export-data.ts';
import { XLSX_TYPE } from '../export/xlsx.ts';
import { downloadText, h } from './dom.ts';

/**
 * "CSV" and "XLSX" buttons for an analysis table (disabled until `table` has one), named like the page's other
 * exports: `news-<kind>-<phrase>.csv`.
 * @example toolbar.append(...exportButtons('collocations', () => state.query, () => this.table()));
 */
export function exportButtons(
  kind: string,
  label: string,
  name: () => string,
  table: () => AnalysisTable | null,
): HTMLButtonElement[] {
  const button = (ext: 'csv' | 'xlsx') =>
    h(
      'button',
      {
        type: 'button',
        class: 'ghost',
        'data-export': `${kind}-${ext}`,
        onclick: async () => {
          const t = table();
          if (t === null) return;
          const file = exportFileName(kind, name(), ext);
          if (ext === 'csv') downloadText(file, tableCsv(t), 'text/csv;charset=utf-8');
          else downloadText(file, await tableXlsx(t), XLSX_TYPE);
        },
      },
      `${label} (${ext.toUpperCase()})`,
    );
  return [button('csv'), button('xlsx')];
}
