import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { STORES } from './support/harness.ts';
import { KIT_DIR, runKit, type StepResult } from './conformance/kit-run.ts';
import { deliberateDifferences } from './conformance/kit-lists.ts';

// Issue 11: the TEC conformance kit (../shared/conformance/tec) replayed against the real service on each store.
// A failing step must be a deliberate difference; a listed step that passes must leave the list.

const GOLDEN_STEPS = (JSON.parse(readFileSync(join(KIT_DIR, 'golden.json'), 'utf8')) as { steps: unknown[] }).steps
  .length;
const deliberate = new Set(deliberateDifferences().flatMap((d) => d.steps));
const describeStep = (s: StepResult) => `${s.line}\n      ${s.firstDifference ?? ''}`;

describe.each(STORES)('TEC conformance kit on $name', (factory) => {
  it('fails only on the deliberate differences, and on every one of them', async () => {
    const run = await runKit(factory);
    expect(run.exitCode, run.output.slice(-2000)).toBeLessThan(2);
    expect(run.steps.size, 'every step of golden.json reported').toBe(GOLDEN_STEPS);
    const failing = [...run.steps.values()].filter((s) => !s.pass);
    console.info(`${factory.name}: ${run.summary}`);
    const unexpected = failing.filter((s) => !deliberate.has(s.id));
    const nowPassing = [...deliberate].filter((id) => run.steps.get(id)?.pass === true).sort();
    expect(unexpected.map(describeStep), 'steps failing that are not deliberate differences').toEqual([]);
    expect(nowPassing, 'deliberate differences that now pass: take them off the list').toEqual([]);
  }, 300_000);
});

describe('deliberate differences', () => {
  it('are each listed in the package README with the kit steps they cost', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    for (const d of deliberateDifferences()) expect(readme).toContain(`(kit steps ${d.steps.join(', ')})`);
  });
});
