import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STORES } from './support/harness.ts';
import { KIT_DIR, runKit, type StepResult } from './conformance/kit-run.ts';
import { deliberateDifferences, knownGaps, writeKnownGaps, type StoreName } from './conformance/kit-lists.ts';

// Issue 11: the TEC conformance kit (../shared/conformance/tec) replayed against the real service on each store.
// A failing step must be a deliberate difference or a known open gap; a listed step that passes must leave its list.

const GOLDEN_STEPS = (JSON.parse(readFileSync(join(KIT_DIR, 'golden.json'), 'utf8')) as { steps: unknown[] }).steps.length;
const deliberate = new Set(deliberateDifferences().flatMap((d) => d.steps));
const failures = new Map<StoreName, StepResult[]>();
const describeStep = (s: StepResult) => `${s.line}\n      ${s.firstDifference ?? ''}`;

afterAll(() => {
  if (process.env.EVENTS_KIT_WRITE_GAPS === '1' && failures.size === STORES.length) writeKnownGaps(failures, deliberate);
});

describe.each(STORES)('TEC conformance kit on $name', (factory) => {
  it('fails only on deliberate differences and known open gaps, and on every one of them', async () => {
    const run = await runKit(factory);
    expect(run.exitCode, run.output.slice(-2000)).toBeLessThan(2);
    expect(run.steps.size, 'every step of golden.json reported').toBe(GOLDEN_STEPS);
    const failing = [...run.steps.values()].filter((s) => !s.pass);
    failures.set(factory.name, failing);
    console.info(`${factory.name}: ${run.summary}`);
    const gaps = new Set(knownGaps().filter((g) => g.stores.includes(factory.name)).map((g) => g.step));
    const unexpected = failing.filter((s) => !deliberate.has(s.id) && !gaps.has(s.id));
    const nowPassing = [...deliberate, ...gaps].filter((id) => run.steps.get(id)?.pass === true).sort();
    if (process.env.EVENTS_KIT_WRITE_GAPS === '1') return;
    expect(unexpected.map(describeStep), 'steps failing that no list names').toEqual([]);
    expect(nowPassing, 'listed steps that now pass: take them off the list').toEqual([]);
  }, 300_000);
});

describe('deliberate differences', () => {
  it('are each listed in the package README with the kit steps they cost', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const d of deliberateDifferences()) expect(readme).toContain(`(kit steps ${d.steps.join(', ')})`);
  });

  it('never also appear as open gaps', () => {
    expect(knownGaps().filter((g) => deliberate.has(g.step))).toEqual([]);
  });
});
