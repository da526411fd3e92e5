import { svg } from '../view/dom.ts';
import { calendarGaps, nearestPeriod, periodPositions } from './calendar-axis.ts';
import { formatMeasure, timelineTicks, type TimelineChart } from './timeline-data.ts';

/** Okabe–Ito colours: told apart with every common colour-vision deficiency; each line also has its own dash. */
export const SERIES_COLOURS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#8F6A00'] as const;
export const SERIES_DASHES = ['', '7 4', '2 3', '9 3 2 3', '4 2'] as const;

/** Widest drawing, in viewBox units; a narrower plot (a phone) is drawn at its own width so labels keep their size. */
export const MAX_WIDTH = 720;
const MIN_WIDTH = 280;
const H = 210;
const PAD = { right: 16, top: 12, bottom: 28 };
/** Width of one character of an 11 px tick label, generously, in viewBox units. */
const TICK_CHAR_W = 7;

/**
 * How an x-axis label sits on its tick: centred, unless half of it would pass an edge of the drawing, where it
 * is anchored to the tick from inside instead (issue 29: the last label was clipped to "2026-0").
 * @example tickAnchor(700, 49, 720) // 'end'
 */
export function tickAnchor(at: number, textWidth: number, width: number): 'start' | 'middle' | 'end' {
  if (at + textWidth / 2 > width) return 'end';
  if (at - textWidth / 2 < 0) return 'start';
  return 'middle';
}

export interface TimelineGeometry {
  /** The drawn chart. */
  readonly element: SVGSVGElement;
  /** The period index under a horizontal position given as a fraction (0–1) of the drawn width. */
  indexAt(fraction: number): number;
  /** Moves the cursor (guide line and highlighted points) to a period, or hides it with null. */
  showCursor(index: number | null): void;
}

/**
 * Draws the timeline as lines (one per phrase, with points when the periods are few enough to see them) over
 * round y ticks; the y labels get the room their longest text needs, so none is clipped.
 */
export function drawTimeline(chart: TimelineChart, label: string, width = MAX_WIDTH): TimelineGeometry {
  const W = Math.round(Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, width)));
  const ticks = timelineTicks(chart.max);
  const top = ticks.at(-1) ?? 1;
  const left = Math.max(36, 10 + Math.max(...ticks.map((t) => formatMeasure(t, chart.measure).length)) * TICK_CHAR_W);
  const plotW = W - left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const n = chart.periods.length;
  // Calendar time: a period sits at its date, so missing months keep their width (issue 29 bug 2).
  const positions = periodPositions(chart.periods);
  const x = (i: number) => left + (positions[i] ?? 0.5) * plotW;
  const gaps = calendarGaps(chart.periods);
  const gapAfter = new Set(gaps.map((g) => g.after));
  const y = (v: number) => PAD.top + plotH - (top === 0 ? 0 : (v / top) * plotH);
  const root = svg('svg', {
    viewBox: `0 0 ${W} ${H}`,
    class: 'chart-svg timeline-svg',
    'aria-label': label,
    focusable: 'false',
  }) as SVGSVGElement;
  for (const t of ticks) {
    root.append(svg('line', { x1: left, x2: W - PAD.right, y1: y(t), y2: y(t), class: 'grid' }));
    root.append(
      svg('text', { x: left - 6, y: y(t) + 4, class: 'tick', 'text-anchor': 'end' }, formatMeasure(t, chart.measure)),
    );
  }
  // Months without a crawled period are shaded and named, so a gap reads as absent data, not as a trend.
  const unit = chart.yearly ? 'crawl year' : 'month';
  for (const g of gaps) {
    root.append(
      svg(
        'rect',
        {
          x: x(g.after),
          y: PAD.top,
          width: x(g.after + 1) - x(g.after),
          height: plotH,
          class: 'gap',
          'data-missing': g.missing,
        },
        svg('title', {}, `${g.missing} ${unit}${g.missing === 1 ? '' : 's'} without crawled articles`),
      ),
    );
  }
  // A month label is ~7 characters: labels at least 90 units apart leave room between them.
  let lastLabel = -Infinity;
  chart.periods.forEach((p, i) => {
    if (x(i) - lastLabel < 90) return;
    lastLabel = x(i);
    root.append(
      svg('text', { x: x(i), y: H - 8, class: 'tick', 'text-anchor': tickAnchor(x(i), p.length * TICK_CHAR_W, W) }, p),
    );
  });
  const guide = svg('line', { x1: 0, x2: 0, y1: PAD.top, y2: PAD.top + plotH, class: 'cursor', visibility: 'hidden' });
  root.append(guide);
  const dots: SVGElement[][] = [];
  chart.series.forEach((s, k) => {
    const colour = SERIES_COLOURS[k % SERIES_COLOURS.length] as string;
    // Estimated values get their 95% interval as a shaded band, one piece per run of estimated periods.
    for (const run of bandRuns(s.points, gapAfter)) {
      const upper = run.map((i) => `${x(i).toFixed(1)},${y(s.points[i]?.band?.high ?? 0).toFixed(1)}`);
      const lower = run.map((i) => `${x(i).toFixed(1)},${y(s.points[i]?.band?.low ?? 0).toFixed(1)}`).reverse();
      root.append(svg('path', { d: `M${[...upper, ...lower].join('L')}Z`, class: 'band', fill: colour }));
    }
    // A period without articles has no rate: the line breaks there instead of dropping to zero.
    let d = '';
    let pen = false;
    s.points.forEach((p, i) => {
      if (p.value === null) {
        pen = false;
        return;
      }
      if (gapAfter.has(i - 1)) pen = false;
      d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.value).toFixed(1)}`;
      pen = true;
    });
    root.append(
      svg('path', {
        d,
        class: 'series',
        stroke: colour,
        'stroke-dasharray': SERIES_DASHES[k % SERIES_DASHES.length] as string,
      }),
    );
    dots.push(
      s.points.map((p, i) => {
        const dot = svg('circle', {
          cx: x(i),
          cy: y(p.value ?? 0),
          r: n <= 60 ? 3 : 0,
          fill: colour,
          class: 'point',
          visibility: p.value === null ? 'hidden' : 'visible',
        });
        root.append(dot);
        return dot;
      }),
    );
  });
  return {
    element: root,
    indexAt: (fraction) => {
      return n <= 1 ? 0 : nearestPeriod(positions, (fraction * W - left) / plotW);
    },
    showCursor: (index) => {
      guide.setAttribute('visibility', index === null ? 'hidden' : 'visible');
      if (index !== null) {
        guide.setAttribute('x1', String(x(index)));
        guide.setAttribute('x2', String(x(index)));
      }
      for (const row of dots)
        row.forEach((dot, i) => dot.setAttribute('r', String(i === index ? 5.5 : n <= 60 ? 3 : 0)));
    },
  };
}

/** Runs of consecutive periods with a band (a calendar gap or a period without a value ends a run). */
function bandRuns(points: TimelineChart['series'][number]['points'], gapAfter: ReadonlySet<number>): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  points.forEach((p, i) => {
    if (p.band === null || p.value === null || gapAfter.has(i - 1)) {
      if (run.length > 0) runs.push(run);
      run = [];
    }
    if (p.band !== null && p.value !== null) run.push(i);
  });
  if (run.length > 0) runs.push(run);
  return runs;
}
