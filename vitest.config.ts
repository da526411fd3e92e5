import { defineConfig } from 'vitest/config';

// One runner for the whole repository. Each package is a project so its tests can be run alone:
// `npx vitest run --project news`.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'news',
          root: 'packages/news',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 300_000,
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
        },
      },
    ],
  },
});
