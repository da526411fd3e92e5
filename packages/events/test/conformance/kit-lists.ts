import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { StepResult } from './kit-run.ts';

// The two lists a kit step may be on when it fails (formats versioned like every file we persist):
// - deliberate-differences.json: where we answer otherwise than the plugin on purpose (README "Deliberate
//   differences" gives each reason);
// - known-open-gaps.json: issue 11's remaining differences, each with its first difference as the cause. It only
//   shrinks: a listed step that passes fails the test until it is taken off.

const listFile = (name: string) => fileURLToPath(new URL(`./${name}`, import.meta.url));
const FORMAT_VERSION = 1;

/** The list files of one kit, and the issue its open gaps belong to. */
export interface KitLists {
  readonly deliberate: string;
  readonly gaps: string;
  readonly issue: number;
  readonly kit: string;
}
export const TRIBE_LISTS: KitLists = {
  deliberate: listFile('deliberate-differences.json'),
  gaps: listFile('known-open-gaps.json'),
  issue: 11,
  kit: 'TEC 6.17.2 (tribe/events/v1)',
};
/** `tec/v1` (issue 25); its gaps are also the steps waiting for WordPress core routes (`users/me`, settings, the root). */
export const TEC_V1_LISTS: KitLists = {
  deliberate: listFile('tec-v1-deliberate-differences.json'),
  gaps: listFile('tec-v1-open-gaps.json'),
  issue: 25,
  kit: 'TEC 6.17.2 (tec/v1)',
};

export type StoreName = 'sqlite' | 'postgres';
export interface Difference {
  readonly id: string;
  readonly summary: string;
  readonly steps: readonly string[];
}
export interface Gap {
  readonly step: string;
  readonly stores: readonly StoreName[];
  readonly cause: string;
}

function load<T extends { version: number }>(file: string): T {
  const data = JSON.parse(readFileSync(file, 'utf8')) as T;
  if (data.version !== FORMAT_VERSION) throw new Error(`${file}: version ${data.version}, expected ${FORMAT_VERSION}`);
  return data;
}

export const deliberateDifferences = (lists = TRIBE_LISTS): readonly Difference[] =>
  load<{ version: number; differences: Difference[] }>(lists.deliberate).differences;
export const knownGaps = (lists = TRIBE_LISTS): readonly Gap[] =>
  load<{ version: number; gaps: Gap[] }>(lists.gaps).gaps;

/** Rewrites the open-gaps list from the failures of a run on each store (after fixes land: `EVENTS_KIT_WRITE_GAPS=1`). */
export function writeKnownGaps(
  failures: ReadonlyMap<StoreName, readonly StepResult[]>,
  deliberate: ReadonlySet<string>,
  lists = TRIBE_LISTS,
): void {
  const byStep = new Map<string, { stores: StoreName[]; cause: string }>();
  for (const [store, steps] of failures) {
    for (const s of steps) {
      if (deliberate.has(s.id)) continue;
      const entry = byStep.get(s.id) ?? { stores: [], cause: `${s.area}: ${s.firstDifference ?? s.line}` };
      entry.stores.push(store);
      byStep.set(s.id, entry);
    }
  }
  const gaps = [...byStep]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([step, g]) => ({ step, stores: g.stores, cause: g.cause }));
  const about = `Kit steps that still differ from ${lists.kit} (issue ${lists.issue}), with the first difference; regenerate with EVENTS_KIT_WRITE_GAPS=1.`;
  // One gap per line, so a fix shows in review as the lines it removes.
  const lines = gaps.map((g) => `  ${JSON.stringify(g)}`).join(',\n');
  const head = JSON.stringify({ version: FORMAT_VERSION, issue: lists.issue, about }).slice(0, -1);
  writeFileSync(lists.gaps, `${head},\n "gaps": [\n${lines}\n ]\n}\n`);
}
