import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import HeavyFirstSequencer from './scripts/vitest-heavy-first.ts';

/** Turns each worker's event loop after every test (why: the file's comment). */
const eventLoopTurns = fileURLToPath(new URL('./scripts/vitest-event-loop.ts', import.meta.url));

// One runner for the whole repository. Each package is a project so its tests can be run alone:
// `npx vitest run --project news`.
export default defineConfig({
  test: {
    // Two test files at a time, whatever the core count (Vitest's default on 2 cores is one). Most files wait on
    // servers, browsers and child processes more than they compute: the whole suite took 820 s with two against
    // 1,679 s with one (CI, 2 cores), and passed under extra load beside other jobs.
    maxWorkers: 2,
    minWorkers: 1,
    // The longest files first, so the two workers finish together (why and the list: the file's comment).
    sequence: { sequencer: HeavyFirstSequencer },
    projects: [
      {
        test: {
          name: 'news',
          root: 'packages/news',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
          setupFiles: [eventLoopTurns],
          // The Chromium tests poll the page; a loaded 2-core CI machine took over the default 1 s to render a page of
          // cards, failing a test whose page was right.
          expect: { poll: { timeout: 15_000 } },
        },
      },
      {
        test: {
          name: 'events',
          root: 'packages/events',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          setupFiles: [eventLoopTurns],
        },
      },
    ],
  },
});
