import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StepResult } from './kit-run.ts';

// The two lists a kit step may be on when it fails (formats versioned like every file we persist):
// - deliberate-differences.json: where we answer otherwise than the plugin on purpose (README "Deliberate
//   differences" gives each reason);
// - known-open-gaps.json: issue 11's remaining differences, each with its first difference as the cause. It only
//   shrinks: a listed step that passes fails the test until it is taken off.

const DELIBERATE_FILE = fileURLToPath(new URL('./deliberate-differences.json', import.meta.url));
const GAPS_FILE = fileURLToPath(new URL('./known-open-gaps.json', import.meta.url));
const FORMAT_VERSION = 1;

export type StoreName = 'sqlite' | 'postgres';
export interface Difference { readonly id: string; readonly summary: string; readonly steps: readonly string[] }
export interface Gap { readonly step: string; readonly stores: readonly StoreName[]; readonly cause: string }

function load<T extends { version: number }>(file: string): T {
  const data = JSON.parse(readFileSync(file, 'utf8')) as T;
  if (data.version !== FORMAT_VERSION) throw new Error(`${file}: version ${data.version}, expected ${FORMAT_VERSION}`);
  return data;
}

export const deliberateDifferences = (): readonly Difference[] => load<{ version: number; differences: Difference[] }>(DELIBERATE_FILE).differences;
export const knownGaps = (): readonly Gap[] => load<{ version: number; gaps: Gap[] }>(GAPS_FILE).gaps;

/** Rewrites the open-gaps list from the failures of a run on each store (after fixes land: `EVENTS_KIT_WRITE_GAPS=1`). */
export function writeKnownGaps(failures: ReadonlyMap<StoreName, readonly StepResult[]>, deliberate: ReadonlySet<string>): void {
  const byStep = new Map<string, { stores: StoreName[]; cause: string }>();
  for (const [store, steps] of failures) {
    for (const s of steps) {
      if (deliberate.has(s.id)) continue;
      const entry = byStep.get(s.id) ?? { stores: [], cause: `${s.area}: ${s.firstDifference ?? s.line}` };
      entry.stores.push(store);
      byStep.set(s.id, entry);
    }
  }
  const gaps = [...byStep].sort(([a], [b]) => a.localeCompare(b)).map(([step, g]) => ({ step, stores: g.stores, cause: g.cause }));
  const about = 'Kit steps that still differ from TEC 6.17.2 (issue 11), with the first difference; regenerate with EVENTS_KIT_WRITE_GAPS=1.';
  // One gap per line, so a fix shows in review as the lines it removes.
  const lines = gaps.map((g) => `  ${JSON.stringify(g)}`).join(',\n');
  const head = JSON.stringify({ version: FORMAT_VERSION, issue: 11, about }).slice(0, -1);
  writeFileSync(GAPS_FILE, `${head},\n "gaps": [\n${lines}\n ]\n}\n`);
}
