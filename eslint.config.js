import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import boundaries from './scripts/eslint-folder-boundaries.js';

// Dependency direction is enforced here (see README "Architecture"): the index engine knows nothing of HTTP,
// the gateway reaches the worker only through the typed protocol, the browser client only through the public API.
const engineFolders = [
  'suffix-array',
  'shard',
  'matching',
  'corpus',
  'metadata',
  'release',
  'work-budget',
  'search-v2',
];

// Every folder of packages/news/src and the folders its files may import from (by resolved path; a folder's own
// files are always allowed). A folder missing here is a lint error, so a new one states its place in the layers.
const NEWS_ENGINE = [
  'suffix-array',
  'shard',
  'matching',
  'corpus',
  'metadata',
  'release',
  'work-budget',
  'words',
  'stories',
];
const NEWS_FOLDERS = {
  'suffix-array': [],
  'work-budget': [],
  // The synthetic corpus edits words of planted copies (issue 28 item 1).
  corpus: ['words'],
  // Store format 3 compresses its rows with the native addon's zstd, loaded through suffix-array (the addon's home).
  metadata: ['suffix-array'],
  // Words as the analyses count them (Unicode segments, case folding): used by the builder and the v2 calls.
  words: [],
  'python-guards': [],
  // Distinct stories: MinHash signatures, LSH clustering and the per-year story files.
  stories: ['corpus', 'words'],
  shard: ['suffix-array', 'work-budget'],
  matching: ['shard', 'work-budget'],
  release: ['corpus', 'metadata', 'shard', 'suffix-array', 'work-budget', 'words', 'stories'],
  // The v2 domain: pure functions over an open release; no HTTP, no worker, no gateway.
  'search-v2': ['release', 'metadata', 'shard', 'matching', 'work-budget', 'words', 'stories'],
  // The typed boundary between gateway and worker: the v2 calls' declarations and the shapes they carry.
  protocol: ['search-v2', 'metadata'],
  worker: ['protocol', 'search-v2', ...NEWS_ENGINE],
  hub: ['release', 'metadata', 'python-guards'],
  // The gateway knows the worker and the engine only through the protocol.
  gateway: ['protocol', 'hub'],
  // The browser client: the public API's shapes as types only, plus two dependency-free files it bundles.
  client: ['python-guards'],
  cli: [
    'corpus',
    'gateway',
    'hub',
    'matching',
    'metadata',
    'protocol',
    'release',
    'search-v2',
    'shard',
    'suffix-array',
    'work-budget',
    'worker',
    'words',
    'stories',
  ],
};

// Events: each folder of packages/events/src lists the sibling folders it may import (tests may reach further).
// Time, config, db and http are the foundation; post and term build on them; the resources and feeds on those;
// only the CLI and the root app.ts assemble everything.
const eventsLayers = {
  time: [],
  config: ['time'],
  db: [],
  http: [],
  post: ['config', 'db', 'http', 'time'],
  term: ['db', 'http', 'post'],
  user: ['db', 'http', 'time'],
  recurrence: ['db', 'http', 'post', 'term', 'time'],
  event: ['db', 'http', 'post', 'recurrence', 'term', 'time'],
  media: ['config', 'db', 'http', 'post'],
  venue: ['http', 'post'],
  organizer: ['http', 'post'],
  discovery: ['http', 'post', 'time'],
  ical: ['event', 'http', 'post', 'recurrence', 'term', 'time'],
  'tec-v1': ['discovery', 'event', 'http', 'post', 'term', 'time'],
  'wp-core': ['discovery', 'http', 'post', 'user'],
  // Renders bodies through the domain services (src/services.ts, passed in) and sends with media's address rules.
  webhook: ['db', 'http', 'media', 'term', 'time', 'user'],
};
const eventsFolders = [...Object.keys(eventsLayers), 'cli'];
const eventsRules = Object.entries(eventsLayers).map(([folder, allowed]) => ({
  files: [`packages/events/src/${folder}/**/*.ts`],
  ignores: ['**/*.test.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: [
              ...eventsFolders.filter((f) => f !== folder && !allowed.includes(f)).map((f) => `**/${f}/**`),
              '../app.ts',
              '../../app.ts',
            ],
            message: `packages/events/src/${folder} may import only ${allowed.join(', ') || 'no other folder'} (eslint.config.js eventsLayers).`,
          },
        ],
      },
    ],
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
    files: ['packages/news/src/**/*.{js,ts}'],
    plugins: { boundaries },
    rules: {
      'boundaries/folders': [
        'error',
        {
          root: 'packages/news/src',
          mayImport: NEWS_FOLDERS,
          mayImportTypes: { client: ['search-v2'] },
          files: { client: ['search-v2/filter-names.ts'] },
        },
      ],
    },
  },
  {
    files: engineFolders.map((f) => `packages/news/src/${f}/**/*.ts`),
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', 'undici', 'node:http'],
              message: 'The index engine and the v2 domain know nothing of HTTP.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/news/src/gateway/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['better-sqlite3'],
              message: 'The gateway knows the worker only through the typed protocol (src/protocol).',
            },
          ],
        },
      ],
    },
  },
  // Index kinds (src/shard/DESIGN.md): only the registry (shard/kinds.ts) and a kind's own folder know a kind by name;
  // everything else asks the registry. Own block, own rule (no-restricted-syntax), so other folders' rules stay as they are.
  ...shardKindRules(),
  {
    files: ['packages/events/src/dump/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', '**/http/**', '**/cli/**', '**/event/**', '**/post/**', '**/import/**'],
              message: 'The dump copies tables: it knows the store (src/db), not HTTP, the CLI or the domain services.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/events/src/import/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['fastify', '**/cli/**', '**/dump/**', '**/db/connection*', '**/db/sqlite-*'],
              message: 'The importer writes through the domain services (src/services.ts), never the store directly.',
            },
          ],
        },
      ],
    },
  },
  ...eventsRules,
  {
    files: ['packages/*/static/**/*.{js,ts}', 'packages/news/src/client/**/*.{js,ts}'],
    languageOptions: { globals: { ...globals.browser } },
  },
);

/**
 * Shard-kind boundaries, on the folders this package's engine and CLI live in (the v2 service folders keep their own
 * rules). In a function so that each block lists every selector: a later block replaces the rule for its files.
 */
function shardKindRules() {
  const src = 'packages/news/src';
  const own = [`${src}/shard/kinds.ts`, `${src}/shard/*/**`];
  const message =
    'Index kinds are chosen in the registry only (src/shard/kinds.ts): add what you need to IndexKind and call indexKind(name).';
  const compare = 'BinaryExpression[operator=/^[!=]==?$/]';
  const isKind = (node) => `:matches([${node}.name='kind'], [${node}.property.name='kind'])`;
  const kindTests = [
    // A comparison with a kind's name, whatever holds it.
    { selector: `${compare}[left.type='Literal'][left.value=/^(sa|compressed)$/]`, message },
    { selector: `${compare}[right.type='Literal'][right.value=/^(sa|compressed)$/]`, message },
    { selector: 'SwitchCase[test.value=/^(sa|compressed)$/]', message },
    // Any `kind` compared with a literal (a kind added later has a name this rule does not list).
    { selector: `${compare}[right.type='Literal']${isKind('left')}`, message },
    { selector: `${compare}[left.type='Literal']${isKind('right')}`, message },
    { selector: `SwitchStatement${isKind('discriminant')} > SwitchCase[test.type='Literal']`, message },
    {
      selector: String.raw`ImportDeclaration[source.value=/(^|\/)shard\/[^/]+\//]`,
      message: 'Import a shard kind through src/shard/index.ts, not from its folder.',
    },
  ];
  const engine = [
    'shard',
    'release',
    'cli',
    'matching',
    'metadata',
    'corpus',
    'suffix-array',
    'work-budget',
    'hub',
  ].map((f) => `${src}/${f}/**/*.ts`);
  return [
    {
      files: engine,
      ignores: [...own, `${src}/shard/*.ts`],
      rules: { 'no-restricted-syntax': ['error', ...kindTests] },
    },
    // Shared shard code knows no kind: it reaches kinds through kinds.ts (index.ts re-exports the public API).
    {
      files: [`${src}/shard/*.ts`],
      ignores: own,
      rules: {
        'no-restricted-syntax': [
          'error',
          ...kindTests,
          {
            selector: String.raw`ImportDeclaration[source.value=/^\.\/[^/]+\//]`,
            message: 'Shared shard code knows no kind: reach kinds through kinds.ts.',
          },
        ],
      },
    },
    // A kind knows no other kind: from src/shard it imports only the shared files.
    {
      files: [`${src}/shard/*/**/*.ts`],
      rules: {
        'no-restricted-syntax': [
          'error',
          {
            selector: String.raw`ImportDeclaration[source.value=/^\.\.\/[^./][^/]*\//]`,
            message: 'A kind knows no other kind: import only the shared files of src/shard.',
          },
        ],
      },
    },
  ];
}
