import { axisTicks, type ChartData } from '../chart/chart-data.ts';
import { formatCount, h, svg } from './dom.ts';

const W = 720;
const H = 180;
const PAD = { left: 44, right: 30, top: 10, bottom: 28 };
/** Width of one digit or separator of an 11 px tick label, generously, in viewBox units. */
const TICK_CHAR_W = 7;

/** Bar chart of occurrences per crawl month, drawn as SVG with a text table for screen readers. */
export function renderChart(data: ChartData, query: string): HTMLElement {
  const unit = data.yearly ? 'crawl year' : 'crawl month';
  const caption = `Occurrences of “${query}” per ${unit}`;
  if (data.bars.length === 0) return h('figure', { class: 'chart' }, h('figcaption', {}, caption), h('p', { class: 'muted' }, 'No crawl periods in the selected range.'));
  const ticks = axisTicks(data.max);
  const top = ticks.at(-1) ?? 1;
  // The y labels end 6 units left of the plot: leave room for the longest ("2,000,000"), never clip its start.
  const left = Math.max(PAD.left, 6 + 4 + formatCount(top).length * TICK_CHAR_W);
  const plotW = W - left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const y = (v: number) => PAD.top + plotH - (top === 0 ? 0 : (v / top) * plotH);
  const slot = plotW / data.bars.length;
  const barW = Math.max(1, Math.min(28, slot * 0.8));
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': caption, class: 'chart-svg' });
  for (const t of ticks) {
    chart.append(svg('line', { x1: left, x2: W - PAD.right, y1: y(t), y2: y(t), class: 'grid' }));
    chart.append(svg('text', { x: left - 6, y: y(t) + 4, class: 'tick', 'text-anchor': 'end' }, formatCount(t)));
  }
  const labelEvery = Math.max(1, Math.ceil(data.bars.length / 12));
  data.bars.forEach((b, i) => {
    const x = left + i * slot + (slot - barW) / 2;
    const rect = svg('rect', { x, y: y(b.count), width: barW, height: Math.max(0, PAD.top + plotH - y(b.count)), class: b.count > 0 ? 'bar' : 'bar empty', rx: 2 },
      svg('title', {}, `${b.period}: ${formatCount(b.count)} occurrences`));
    chart.append(rect);
    if (i % labelEvery === 0) chart.append(svg('text', { x: x + barW / 2, y: H - 8, class: 'tick', 'text-anchor': 'middle' }, b.period));
  });
  // The wrapper hides the table: a table ignores `width: 1px` and would widen the page sideways.
  const table = h('div', { class: 'visually-hidden' }, h('table', {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, unit), h('th', { scope: 'col' }, 'occurrences'))),
    h('tbody', {}, ...data.bars.map((b) => h('tr', {}, h('th', { scope: 'row' }, b.period), h('td', {}, String(b.count)))))));
  return h('figure', { class: 'chart', 'data-testid': 'chart' }, h('figcaption', {}, caption), chart, table);
}
