/**
 * The plugin's CSV date rules: `YYYY-MM-DD` preferred; slashes are US order (`m/d/Y`), hyphens or dots with the year
 * last are European (`d-m-Y`), as PHP's strtotime reads them. Answers `YYYY-MM-DD`, or undefined for anything else
 * (including days that do not exist: 2025-02-30).
 * @example csvDate('7/4/2025') // '2025-07-04'; csvDate('4-7-2025') // '2025-07-04'
 */
export function csvDate(text: string): string | undefined {
  const s = text.trim();
  let y: number, m: number, d: number;
  let g: RegExpExecArray | null;
  if ((g = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(s))) [y, m, d] = [+g[1]!, +g[2]!, +g[3]!];
  else if ((g = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s))) [m, d, y] = [+g[1]!, +g[2]!, +g[3]!];
  else if ((g = /^(\d{1,2})[-.](\d{1,2})[-.](\d{4})$/.exec(s))) [d, m, y] = [+g[1]!, +g[2]!, +g[3]!];
  else return undefined;
  if (m < 1 || m > 12 || d < 1 || d > new Date(Date.UTC(y, m, 0)).getUTCDate()) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/**
 * A time of day as spreadsheets write it: `14:30`, `14:30:15`, `2:30 pm`, `2pm`, `2:30 p.m.`. Answers `HH:MM:SS`.
 * @example csvTime('2:30 pm') // '14:30:00'
 */
export function csvTime(text: string): string | undefined {
  const g = /^(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*([ap])?\.?(?:m\.?)?$/i.exec(text.trim());
  if (!g) return undefined;
  let h = +g[1]!;
  const mi = g[2] === undefined ? 0 : +g[2];
  const sec = g[3] === undefined ? 0 : +g[3];
  const meridian = g[4]?.toLowerCase();
  // A bare hour is a time only with am/pm ("14" alone is more likely a typo than 2 pm).
  if (g[2] === undefined && meridian === undefined) return undefined;
  if (/m\.?$/i.test(text.trim()) && meridian === undefined) return undefined;
  if (meridian !== undefined) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (meridian === 'p' ? 12 : 0);
  }
  if (h > 23 || mi > 59 || sec > 59) return undefined;
  return [h, mi, sec].map((n) => String(n).padStart(2, '0')).join(':');
}
