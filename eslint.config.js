import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import boundaries from './scripts/eslint-folder-boundaries.js';

// Dependency direction is enforced here (see README "Architecture"): the index engine knows nothing of HTTP,
// the gateway reaches the worker only through the typed protocol, the browser client only through the public API.
const engineFolders = ['suffix-array', 'shard', 'matching', 'corpus', 'metadata', 'release', 'work-budget', 'search-v2'];

// Every folder of packages/news/src and the folders its files may import from (by resolved path; a folder's own
// files are always allowed). A folder missing here is a lint error, so a new one states its place in the layers.
const NEWS_ENGINE = ['suffix-array', 'shard', 'matching', 'corpus', 'metadata', 'release', 'work-budget'];
const NEWS_FOLDERS = {
  'suffix-array': [],
  'work-budget': [],
  corpus: [],
  metadata: [],
  'python-guards': [],
  shard: ['suffix-array', 'work-budget'],
  matching: ['shard', 'work-budget'],
  release: ['corpus', 'metadata', 'shard', 'suffix-array', 'work-budget'],
  // The v2 domain: pure functions over an open release; no HTTP, no worker, no gateway.
  'search-v2': ['release', 'metadata', 'shard', 'matching', 'work-budget'],
  // The typed boundary between gateway and worker: the v2 calls' declarations and the shapes they carry.
  protocol: ['search-v2', 'metadata'],
  worker: ['protocol', 'search-v2', ...NEWS_ENGINE],
  hub: ['release', 'metadata', 'python-guards'],
  // The gateway knows the worker and the engine only through the protocol.
  gateway: ['protocol', 'hub'],
  // The browser client: the public API's shapes as types only, plus two dependency-free files it bundles.
  client: ['python-guards'],
  cli: ['corpus', 'gateway', 'hub', 'matching', 'metadata', 'protocol', 'release', 'search-v2', 'shard', 'suffix-array', 'work-budget', 'worker'],
};

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
    files: ['packages/news/src/**/*.{js,ts}'],
    plugins: { boundaries },
    rules: {
      'boundaries/folders': ['error', {
        root: 'packages/news/src',
        mayImport: NEWS_FOLDERS,
        mayImportTypes: { client: ['search-v2'] },
        files: { client: ['search-v2/filter-names.ts'] },
      }],
    },
  },
  {
    files: engineFolders.map((f) => `packages/news/src/${f}/**/*.ts`),
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['fastify', 'undici', 'node:http'], message: 'The index engine and the v2 domain know nothing of HTTP.' }],
      }],
    },
  },
  {
    files: ['packages/news/src/gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['better-sqlite3'], message: 'The gateway knows the worker only through the typed protocol (src/protocol).' }],
      }],
    },
  },
  {
    files: ['packages/*/static/**/*.{js,ts}', 'packages/news/src/client/**/*.{js,ts}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);
