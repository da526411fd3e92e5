/** A wall-clock date-time with no zone attached: what a calendar shows in some time zone. */
export interface Wall {
  readonly y: number;
  readonly mo: number;
  readonly d: number;
  readonly h: number;
  readonly mi: number;
  readonly s: number;
}

/** Normalises overflowing fields (month 13, day 0, hour 24…) the way PHP and `Date.UTC` both do. */
export function makeWall(y: number, mo: number, d: number, h = 0, mi = 0, s = 0): Wall {
  return wallFromEpoch(Date.UTC(y, mo - 1, d, h, mi, s));
}

/** Reads a millisecond epoch as if it were wall time (the UTC fields of the Date). */
export function wallFromEpoch(ms: number): Wall {
  const t = new Date(ms);
  return {
    y: t.getUTCFullYear(),
    mo: t.getUTCMonth() + 1,
    d: t.getUTCDate(),
    h: t.getUTCHours(),
    mi: t.getUTCMinutes(),
    s: t.getUTCSeconds(),
  };
}

export function wallToEpoch(w: Wall): number {
  return Date.UTC(w.y, w.mo - 1, w.d, w.h, w.mi, w.s);
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** `YYYY-MM-DD HH:MM:SS`, the only date-time form the plugin puts in bodies. */
export function formatWall(w: Wall): string {
  return `${pad(w.y, 4)}-${pad(w.mo)}-${pad(w.d)} ${pad(w.h)}:${pad(w.mi)}:${pad(w.s)}`;
}

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Parses the stored `YYYY-MM-DD HH:MM:SS` form; throws on anything else because stored data is trusted. */
export function parseWall(text: string): Wall {
  const m = WALL_RE.exec(text);
  if (!m) throw new Error(`not a stored date-time: ${text}`);
  return { y: +m[1]!, mo: +m[2]!, d: +m[3]!, h: +m[4]!, mi: +m[5]!, s: +m[6]! };
}

export function startOfDay(w: Wall): Wall {
  return { ...w, h: 0, mi: 0, s: 0 };
}
export function endOfDay(w: Wall): Wall {
  return { ...w, h: 23, mi: 59, s: 59 };
}

/** The plugin's `*_details` object: every value a zero-padded string. */
export function wallDetails(w: Wall): Record<'year' | 'month' | 'day' | 'hour' | 'minutes' | 'seconds', string> {
  return { year: pad(w.y, 4), month: pad(w.mo), day: pad(w.d), hour: pad(w.h), minutes: pad(w.mi), seconds: pad(w.s) };
}
