import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseDateTime } from './strtotime.ts';
import { formatWall } from './wall.ts';
import { utcToWall } from './zone.ts';

// PHP's own answers, recorded by test/fixtures/strtotime/generate.php (CI has no PHP): every form at two base instants
// in UTC and Australia/Sydney; `expected` is the wall time in that zone, null where strtotime() returns false.
interface Case {
  form: string;
  zone: string;
  base: string;
  expected: string | null;
}
const FIXTURE = new URL('../../test/fixtures/strtotime/strtotime.json', import.meta.url);
const { cases } = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { cases: Case[] };

const ours = (c: Case): string | null => {
  const ms = parseDateTime(c.form, c.zone, Date.parse(c.base));
  return ms === undefined ? null : formatWall(utcToWall(ms, c.zone));
};

describe('parseDateTime against PHP 8.2 strtotime()', () => {
  it('covers at least 150 accepted and 20 rejected forms', () => {
    const forms = (accepted: boolean) =>
      new Set(cases.filter((c) => (c.expected !== null) === accepted).map((c) => c.form));
    expect(forms(true).size).toBeGreaterThanOrEqual(150);
    expect(forms(false).size).toBeGreaterThanOrEqual(20);
  });

  it.each(cases.map((c) => [c.form, c.zone, c.base, c] as const))('%j in %s at %s', (_form, _zone, _base, c) => {
    expect(ours(c)).toBe(c.expected);
  });
});
