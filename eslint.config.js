import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Dependency direction is enforced here (see README "Architecture"): the index engine knows nothing of HTTP,
// the gateway reaches the worker only through the typed protocol, the browser client only through the public API.
const engineFolders = ['suffix-array', 'shard', 'matching', 'corpus', 'metadata', 'release', 'work-budget'];

// Events: each folder of packages/events/src lists the sibling folders it may import (tests may reach further).
// Time, config, db and http are the foundation; post and term build on them; the resources and feeds on those;
// only the CLI and the root app.ts assemble everything.
const eventsLayers = {
  time: [], config: ['time'], db: [], http: [],
  post: ['config', 'db', 'http', 'time'], term: ['db', 'http', 'post'], user: ['db', 'http', 'time'],
  recurrence: ['db', 'http', 'post', 'term', 'time'], event: ['db', 'http', 'post', 'recurrence', 'term', 'time'],
  media: ['config', 'db', 'http', 'post'], venue: ['http', 'post'], organizer: ['http', 'post'],
  discovery: ['http', 'post', 'time'], ical: ['event', 'http', 'post', 'recurrence', 'term', 'time'],
  'tec-v1': ['discovery', 'event', 'http', 'post', 'term', 'time'], 'wp-core': ['discovery', 'http', 'post', 'user'],
};
const eventsFolders = [...Object.keys(eventsLayers), 'cli'];
const eventsRules = Object.entries(eventsLayers).map(([folder, allowed]) => ({
  files: [`packages/events/src/${folder}/**/*.ts`],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{
        group: [...eventsFolders.filter((f) => f !== folder && !allowed.includes(f)).map((f) => `**/${f}/**`), '../app.ts', '../../app.ts'],
        message: `packages/events/src/${folder} may import only ${allowed.join(', ') || 'no other folder'} (eslint.config.js eventsLayers).`,
      }],
    }],
  },
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/build/**', '**/dist/**', 'packages/news/native/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: engineFolders.map((f) => `packages/news/src/${f}/**/*.ts`),
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['fastify', 'undici', 'node:http', '**/worker/**', '**/gateway/**', '**/cli/**'],
            message: 'The index engine knows nothing of HTTP, the worker, the gateway or the CLI.' },
        ],
      }],
    },
  },
  {
    files: ['packages/news/src/gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['**/shard/**', '**/matching/**', '**/suffix-array/**', '**/release/**', '**/metadata/**', '**/corpus/**', 'better-sqlite3'],
            message: 'The gateway knows the worker only through the typed protocol (src/protocol).' },
        ],
      }],
    },
  },
  ...eventsRules,
  {
    files: ['packages/*/static/**/*.{js,ts}', 'packages/news/src/client/**/*.{js,ts}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
