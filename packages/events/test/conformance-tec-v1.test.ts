import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STORES } from './support/harness.ts';
import { runKit, TEC_V1_KIT, type StepResult } from './conformance/kit-run.ts';
import {
  deliberateDifferences,
  knownGaps,
  TEC_V1_LISTS,
  writeKnownGaps,
  type StoreName,
} from './conformance/kit-lists.ts';

// Issue 25: the `tec/v1` conformance kit (../shared/conformance/tec-v1) replayed against the real service on each
// store, with the same runner as the tribe/events/v1 kit. A failing step must be on one of the two lists (deliberate
// differences, with their reasons in the README; open gaps, with their first difference), and a listed step that
// passes must leave its list.

interface GoldenStep {
  id: string;
  request: { path: string | null };
}
const golden = (JSON.parse(readFileSync(join(TEC_V1_KIT.dir, 'golden.json'), 'utf8')) as { steps: GoldenStep[] }).steps;
/** Steps on WordPress core routes (`/wp/v2/users/me`, `/wp/v2/settings`, `GET /wp-json/`): another helper's routes. */
const CORE_STEPS = new Set(
  golden.filter((s) => s.request.path === '/' || s.request.path?.startsWith('/wp/v2/') === true).map((s) => s.id),
);
const deliberate = new Set(deliberateDifferences(TEC_V1_LISTS).flatMap((d) => d.steps));
const describeStep = (s: StepResult) => `${s.line}\n      ${s.firstDifference ?? ''}`;
const failures = new Map<StoreName, StepResult[]>();

describe.each(STORES)('tec/v1 conformance kit on $name', (factory) => {
  it('fails only on listed steps, and on every one of them', async () => {
    const run = await runKit(factory, TEC_V1_KIT);
    expect(run.exitCode, run.output.slice(-2000)).toBeLessThan(2);
    expect(run.steps.size, 'every step of golden.json reported').toBe(golden.length);
    const failing = [...run.steps.values()].filter((s) => !s.pass);
    failures.set(factory.name, failing);
    const ours = [...run.steps.values()].filter((s) => !CORE_STEPS.has(s.id));
    const oursPassing = ours.filter((s) => s.pass).length;
    console.info(
      `${factory.name}: ${run.summary}; without the ${CORE_STEPS.size} core-route steps ${oursPassing}/${ours.length} ` +
        `(${((100 * oursPassing) / ours.length).toFixed(1)}%)`,
    );
    if (process.env.EVENTS_KIT_WRITE_GAPS === '1') return;
    const gaps = new Set(
      knownGaps(TEC_V1_LISTS)
        .filter((g) => g.stores.includes(factory.name))
        .map((g) => g.step),
    );
    const unexpected = failing.filter((s) => !deliberate.has(s.id) && !gaps.has(s.id));
    const nowPassing = [...deliberate, ...gaps].filter((id) => run.steps.get(id)?.pass === true).sort();
    expect(unexpected.map(describeStep), 'steps failing that are on neither list').toEqual([]);
    expect(nowPassing, 'listed steps that now pass: take them off their list').toEqual([]);
  }, 300_000);
});

afterAll(() => {
  if (process.env.EVENTS_KIT_WRITE_GAPS === '1' && failures.size === STORES.length)
    writeKnownGaps(failures, deliberate, TEC_V1_LISTS);
});

describe('tec/v1 deliberate differences', () => {
  it('are each listed in the package README with the kit steps they cost', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const d of deliberateDifferences(TEC_V1_LISTS))
      expect(readme).toContain(`(tec/v1 kit steps ${d.steps.join(', ')})`);
  });
});
