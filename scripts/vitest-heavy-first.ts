/**
 * Test file order: the files that take longest start first, so the two workers finish together.
 *
 * Why: Vitest orders files by the durations of the previous run on this machine, and without them (a clean CI clone)
 * by file size, largest first. Size says little here: small files that build or scan the real corpora ran last and
 * left one worker alone for their whole length at the end of the run. This list names those files, longest first,
 * from a whole run on 29 Nov 2026 (each file's tests plus its beforeAll: building, starting servers). The rest keep
 * Vitest's order. The first two do not wait on one shared release: analyses-corpora builds both kinds of it while
 * release-assemble-corpora builds its own parts.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

export const HEAVY_FIRST: readonly string[] = [
  'packages/news/test/analyses-corpora.test.ts',
  'packages/news/test/release-assemble-corpora.test.ts',
  'packages/news/test/estimate-stories-corpora.test.ts',
  'packages/news/test/parts-corpora.test.ts',
  'packages/news/test/v2-corpora.test.ts',
  'packages/news/test/v2-research.test.ts',
  'packages/events/test/kses.test.ts',
  'packages/events/test/durability.test.ts',
  'packages/news/test/cluster-loopback.test.ts',
  'packages/events/test/login-throttle.test.ts',
  'packages/news/test/timeline-stories-corpora.test.ts',
  'packages/news/test/search-star-case.test.ts',
  'packages/events/test/password-protected.test.ts',
  'packages/events/test/ical-subscriptions.test.ts',
  'packages/news/src/shard/compressed/fm-build.test.ts',
  'packages/events/test/tec-import-cli.test.ts',
  'packages/news/test/release-stories.test.ts',
  'packages/news/test/cluster-netns.test.ts',
  'packages/news/test/e2e-release.test.ts',
  'packages/news/test/e2e-compressed.test.ts',
];

export default class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = HEAVY_FIRST.indexOf(relative(this.ctx.config.root, f.moduleId));
      return i === -1 ? HEAVY_FIRST.length : i;
    };
    // Array.prototype.sort is stable: files off the list keep Vitest's order after the listed ones.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
