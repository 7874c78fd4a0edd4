// The workspace's one ESLint configuration (flat config): typescript-eslint's recommended rules
// (syntax only, no type information, so lint stays fast), React's rules of hooks, and the import
// boundaries of ../../../shared/DESIGN.md between apps, their layers and the packages.
//
// This package carries its own TypeScript 6: typescript-eslint's parser needs TypeScript's
// JavaScript compiler API, which TypeScript 7 (the workspace's type checker) does not have.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { FRONTEND_APPS, REMOTE_APPS } from '../../scripts/apps.mjs';

/** The front ends, found in the workspace: the shell and the remotes it composes at run time. */
export const REMOTES = REMOTE_APPS;
export const BROWSER_APPS = FRONTEND_APPS;
/** Everything that is an app (deployed on its own) or QA's flows, never a dependency of a package. */
const APPS = [...BROWSER_APPS, 'bff', 'e2e'];

/**
 * The import boundaries, as zones on resolved file paths (relative to the repository root), so
 * an import is caught whether it names a relative path or a workspace package (`@bimi/cart/store`
 * resolves to packages/cart/src/store.ts). `bffTestFixtures`: the zones of a package's tests.
 */
function boundaryZones({ bffTestFixtures = false } = {}) {
  const packageMessage = 'A package never imports an app: move what both need into a package.';
  return [
    // (a) Remotes are composed at run time (Module Federation): none imports another's source or the shell's.
    ...REMOTES.map((remote) => ({
      target: remote,
      from: ['shell', ...REMOTES.filter((other) => other !== remote)],
      message: 'A remote never imports another remote or the shell: they meet at run time, through the contracts in @bimi/contracts.',
    })),
    {
      target: 'shell',
      from: REMOTES,
      message: 'The shell loads remotes at run time from the registry; it never imports their source.',
    },
    // (b) Inside a remote, app/ composes the features (route table, pages); a feature never reaches back up.
    ...REMOTES.map((remote) => ({
      target: `${remote}/src/features`,
      from: `${remote}/src/app`,
      message: 'A feature never imports its app layer (src/app composes the features, not the other way round): take what it needs as a prop.',
    })),
    // (c) Packages are shared by the apps and know none of them. A package's tests may use the
    // bff's test fixtures and helpers (a real identity store instead of a mock, the test clocks),
    // nothing else of it.
    ...(bffTestFixtures
      ? [
          { target: 'packages', from: APPS.filter((app) => app !== 'bff'), message: packageMessage },
          { target: 'packages', from: 'bff', except: ['test'], message: packageMessage },
        ]
      : [{ target: 'packages', from: APPS, message: packageMessage }]),
    // (d) Browser code never imports the backend (secrets, database, Node-only code).
    {
      target: BROWSER_APPS,
      from: 'bff',
      message: 'Browser code never imports the bff: share schemas through @bimi/contracts and call the API.',
    },
    // (e) The bff's layers run one way: routes → plugins (I/O: repositories, providers, jobs) →
    // services (rules over ports passed in) → lib and the packages.
    ...BFF_LAYERS,
  ];
}

/** Code the bff writes one way: its timers are jobs, its timestamps come from lib/iso.ts. */
const BFF_SYNTAX = [
  {
    selector: "ImportDeclaration[source.value=/^(node:)?timers(\\u002Fpromises)?$/] ImportSpecifier[imported.name='setInterval']",
    message: 'Periodic work is a named job (plugins/app/platform/job-schedule.ts).',
  },
  {
    selector: "CallExpression[callee.property.name='toISOString']",
    message: "A timestamp is written by iso() or isoDay() of bff/src/lib/iso.ts, with the store's clock.",
  },
];

const BFF_ENTRY_POINTS = ['bff/src/app.ts', 'bff/src/server.ts', 'bff/src/cli'];
const BFF_LAYERS = [
  {
    target: 'bff/src/services',
    from: ['bff/src/plugins', 'bff/src/routes', ...BFF_ENTRY_POINTS],
    message: 'A service is rules over the ports it is given: it never imports a plugin or a route. Take what it needs as arguments (a port type in the service).',
  },
  {
    target: 'bff/src/plugins',
    from: ['bff/src/routes', ...BFF_ENTRY_POINTS],
    message: 'A plugin never imports a route or the app: routes use plugins, not the other way round.',
  },
  {
    target: 'bff/src/services',
    from: 'bff/src/lib/http-error.ts',
    message: 'A service knows nothing of HTTP: throw a Refusal (lib/refusal.ts), which the error handler answers with the status of its kind.',
  },
  {
    target: 'bff/src/lib',
    from: ['bff/src/plugins', 'bff/src/routes', 'bff/src/services', 'bff/src/db', ...BFF_ENTRY_POINTS],
    message: 'lib/ is the bottom layer: it imports packages and other lib files, never a plugin, service or route.',
  },
  {
    // A migration may apply a rule of services/ (normalizing stored names), never a plugin's I/O.
    target: 'bff/src/db',
    from: ['bff/src/plugins', 'bff/src/routes', ...BFF_ENTRY_POINTS],
    message: 'The schema and migrations stand alone: they never import a plugin or a route.',
  },
];

const TEST_CLOCK_MESSAGE = 'Time a test through bff/test/timing.ts: cpuMsOf for work on the CPU (a busy host stretches its wall clock), wallMsOf for a wait.';
const IDLE_MESSAGE = "Start work a page can do without with whenIdleAfterVisitorActs (@bimi/ui/idle): on idle alone it runs during the first page's load.";

/** Apps are not dependencies of anything: an import by package name is always a boundary crossing. */
const NO_APP_PACKAGES = {
  patterns: [
    {
      regex: '^@bimi/(shell|mfe-[a-z-]+|bff|e2e)(/|$)',
      message: 'Apps are not packages: never import one by name (see the boundaries in README.md).',
    },
  ],
};

/**
 * The configuration for the repository at `root`: every TypeScript, TSX and JavaScript module
 * of the apps, the bff, the packages, the e2e flows and the scripts.
 */
export function workspaceConfig(root) {
  return tseslint.config(
    {
      ignores: ['**/node_modules/', '**/dist/', '**/releases/', '.tools/', 'data/', 'test-results/', 'playwright-report/', '.deploys/', 'bench-results/'],
    },
    {
      files: ['**/*.{ts,tsx,mjs,cjs}'],
      extends: [js.configs.recommended, tseslint.configs.recommended],
      plugins: { 'import-x': importX },
      languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
      linterOptions: { reportUnusedDisableDirectives: 'error' },
      settings: {
        'import-x/resolver-next': [createTypeScriptImportResolver()],
      },
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones() }],
        'no-restricted-imports': ['error', NO_APP_PACKAGES],
        // `const { secret: _secret, ...rest } = x` drops a field: a leading _ marks a name kept unused on purpose.
        '@typescript-eslint/no-unused-vars': [
          'error',
          { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
        ],
        // Best-effort clean-up (`try { process.kill(pid) } catch {}`: it may be gone already) needs no handler.
        'no-empty': ['error', { allowEmptyCatch: true }],
        // A callback made before the value exists (a double's hook reading the server started after it) needs `let`.
        'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      },
    },
    {
      // The bff's code stays readable in pieces: no file over 500 lines, no function over 250.
      files: ['bff/src/**/*.ts'],
      ignores: ['**/*.test.ts'],
      rules: {
        'max-lines': ['error', { max: 500 }],
        'max-lines-per-function': ['error', { max: 250, skipBlankLines: true, skipComments: true }],
      },
    },
    {
      // One scheduler: periodic work in the bff is a named job (plugins/app/platform/job-schedule.ts),
      // whose timers live in the jobs plugin alone; one way to write a timestamp (lib/iso.ts).
      files: ['bff/src/**/*.ts'],
      ignores: ['**/*.test.ts', 'bff/src/plugins/app/platform/jobs.ts', 'bff/src/lib/iso.ts'],
      rules: {
        'no-restricted-globals': [
          'error',
          { name: 'setInterval', message: 'Periodic work is a named job: add it to plugins/app/platform/job-schedule.ts and hand its handler to fastify.jobs.handle.' },
        ],
        'no-restricted-syntax': ['error', ...BFF_SYNTAX],
      },
    },
    {
      // The database's dialect is asked of plugins/app/platform/db.ts (isSqlite) alone; the migrations'
      // column helpers are the schema's own.
      files: ['bff/src/**/*.ts'],
      ignores: ['**/*.test.ts', 'bff/src/plugins/app/platform/db.ts', 'bff/src/db/**'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            ...NO_APP_PACKAGES,
            paths: [
              {
                name: 'kysely',
                importNames: ['SqliteAdapter', 'PostgresAdapter', 'SqliteDialect', 'PostgresDialect'],
                message: 'Ask plugins/app/platform/db.ts which database this is (isSqlite).',
              },
              { name: 'better-sqlite3', message: 'Only plugins/app/platform/db.ts opens the database.' },
              { name: 'pg', message: 'Only plugins/app/platform/db.ts opens the database.' },
            ],
          },
        ],
      },
    },
    {
      // A route asks plugins (repositories) for its data and writes no SQL of its own: no Kysely,
      // and no `.db` (fastify.db), in bff/src/routes.
      files: ['bff/src/routes/**/*.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            ...NO_APP_PACKAGES,
            paths: [{ name: 'kysely', message: 'A route writes no SQL: ask a plugin (a repository under bff/src/plugins) for the data.' }],
          },
        ],
        'no-restricted-syntax': [
          'error',
          ...BFF_SYNTAX,
          {
            selector: "MemberExpression[property.name='db']",
            message: 'A route writes no SQL: ask a plugin (a repository under bff/src/plugins) for the data.',
          },
        ],
      },
    },
    {
      files: ['packages/*/src/**/*.test.ts'],
      rules: {
        'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones({ bffTestFixtures: true }) }],
      },
    },
    {
      // React code: the browser apps and the packages (hooks live in .ts files too). The rules of
      // hooks only: the plugin's React Compiler rules check what that compiler needs (the apps are
      // not built with it) and took 70 % of the lint time.
      files: [...BROWSER_APPS.map((app) => `${app}/**/*.{ts,tsx}`), 'packages/**/*.{ts,tsx}'],
      plugins: { 'react-hooks': reactHooks },
      rules: {
        'react-hooks/rules-of-hooks': 'error',
        'react-hooks/exhaustive-deps': 'error',
      },
    },
    {
      // Work a page can do without waits for the visitor (packages/ui/src/idle.ts): a preload started
      // on idle alone runs during the first page's load, where a slow phone pays for it (issue 34).
      files: [...BROWSER_APPS.map((app) => `${app}/src/**/*.{ts,tsx}`), 'packages/*/src/**/*.{ts,tsx}'],
      ignores: ['packages/ui/src/idle.ts', '**/*.test.{ts,tsx}'],
      rules: {
        'no-restricted-globals': ['error', { name: 'requestIdleCallback', message: IDLE_MESSAGE }],
        'no-restricted-properties': ['error', { object: 'window', property: 'requestIdleCallback', message: IDLE_MESSAGE }],
      },
    },
    {
      // A test that reads the wall clock for work on the CPU fails on a host that is only busy (CI's
      // two cores, a second jest worker): each timing in a test names its clock (bff/test/timing.ts,
      // which the bff's tests and the packages' may import; the browser apps' tests time nothing).
      files: ['bff/**/*.test.ts', 'packages/*/src/**/*.test.{ts,tsx}'],
      rules: { 'no-restricted-properties': ['error', { object: 'performance', property: 'now', message: TEST_CLOCK_MESSAGE }] },
    },
    {
      // Test doubles and helpers handle untyped wire data (Stripe's form-encoded bodies, inject's json()).
      files: ['**/test/**', '**/*.test.{ts,tsx}', 'e2e/**'],
      rules: { '@typescript-eslint/no-explicit-any': 'off' },
    },
    {
      // Playwright reads a fixture's first parameter as a destructuring pattern: `async ({}, use)` uses no other fixture.
      files: ['e2e/**'],
      rules: { 'no-empty-pattern': 'off' },
    },
    {
      // Scripts, webpack configurations, workers and the e2e helpers run in Node.
      files: ['**/*.{mjs,cjs}'],
      languageOptions: { globals: globals.node },
    },
    {
      files: ['**/*.cjs'],
      languageOptions: { sourceType: 'commonjs' },
      rules: { '@typescript-eslint/no-require-imports': 'off' },
    },
  );
}
