/** The shortest and longest schedule a subscription may have: feeds are polite to poll hourly, never every second. */
export const MIN_EVERY_SECONDS = 5 * 60;
export const MAX_EVERY_SECONDS = 7 * 86_400;

const UNITS: Record<string, number> = { m: 60, h: 3600, d: 86_400 };

/**
 * `--every` as seconds: a whole number of minutes, hours or days (`30m`, `1h`, `2d`), from 5 minutes to 7 days;
 * undefined for anything else.
 * @example parseEvery('1h') // 3600
 */
export function parseEvery(text: string): number | undefined {
  const m = /^(\d{1,6})([mhd])$/.exec(text.trim());
  if (m === null) return undefined;
  const seconds = Number(m[1]) * UNITS[m[2]!]!;
  return seconds >= MIN_EVERY_SECONDS && seconds <= MAX_EVERY_SECONDS ? seconds : undefined;
}

/** Seconds as the shortest `--every` text that says them (`3600` → `1h`). */
export const formatEvery = (seconds: number): string =>
  seconds % 86_400 === 0 ? `${seconds / 86_400}d` : seconds % 3600 === 0 ? `${seconds / 3600}h` : `${seconds / 60}m`;
