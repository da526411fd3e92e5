/**
 * A tiny element builder. Data only ever becomes text nodes or attribute values (never HTML), so article text
 * cannot inject markup; and no inline styles are set, so the strict CSP holds.
 */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.replace(/^on/, ''), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, ...children);
  return el;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag: string, attrs: Record<string, string | number> = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

export function replaceChildren(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

export function byId<T extends HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`page element #${id} is missing`);
  return el as T;
}

const numberFormat = new Intl.NumberFormat('en');
export function formatCount(n: number): string {
  return numberFormat.format(n);
}

/** A size as a reader thinks of it: "840 bytes", "12.3 KB", "1.1 MB" (1 KB = 1,000 bytes). */
export function formatSize(bytes: number): string {
  if (bytes < 1000) return plural(bytes, 'byte', 'bytes');
  const [value, unit] = bytes < 1_000_000 ? [bytes / 1000, 'KB'] : [bytes / 1_000_000, 'MB'];
  return `${value < 10 ? value.toFixed(1) : formatCount(Math.round(value))} ${unit}`;
}

export function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Saves text or bytes as a file through a temporary object URL (works under the CSP: no inline script, no data: URL). */
export function downloadText(fileName: string, text: string | Uint8Array, type: string): void {
  const url = URL.createObjectURL(new Blob([typeof text === 'string' ? text : new Uint8Array(text)], { type }));
  const a = h('a', { href: url, download: fileName, hidden: true });
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Resolves once the browser has had the chance to paint what was just added (a hidden tab paints nothing, so
 * there it resolves at once). Work that can wait a frame goes after it.
 * @example await afterPaint(); // the cards are on screen; now ask for their contexts
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (document.hidden) resolve();
    else requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}
