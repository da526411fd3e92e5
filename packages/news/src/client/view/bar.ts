import { svg } from './dom.ts';

/**
 * A horizontal bar for a share from 0 to 1 (decorative: the number beside it is the value). SVG geometry, since the
 * CSP allows no inline styles.
 * @example cell.append(bar(0.25)) // a quarter-length bar
 */
export function bar(share: number): SVGElement {
  return svg(
    'svg',
    { class: 'bar', viewBox: '0 0 100 6', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
    svg('rect', { x: 0, y: 0, width: Number((Math.max(0, Math.min(1, share)) * 100).toFixed(2)), height: 6 }),
  );
}
