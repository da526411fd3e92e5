import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

// Dependency direction is enforced here (see README "Architecture"): the index engine knows nothing of HTTP,
// the gateway reaches the worker only through the typed protocol, the browser client only through the public API.
const engineFolders = ['suffix-array', 'shard', 'matching', 'corpus', 'metadata', 'release', 'work-budget'];

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
  {
    files: ['packages/events/src/dump/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['fastify', '**/http/**', '**/cli/**', '**/event/**', '**/post/**', '**/import/**'],
            message: 'The dump copies tables: it knows the store (src/db), not HTTP, the CLI or the domain services.' },
        ],
      }],
    },
  },
  {
    files: ['packages/events/src/import/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['fastify', '**/cli/**', '**/dump/**', '**/db/connection*', '**/db/sqlite-*'],
            message: 'The importer writes through the domain services (src/services.ts), never the store directly.' },
        ],
      }],
    },
  },
  {
    files: ['packages/*/static/**/*.{js,ts}', 'packages/news/src/client/**/*.{js,ts}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
