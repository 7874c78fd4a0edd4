/** One jest run for the whole workspace: unit tests beside the code, bff API tests through fastify.inject. */
module.exports = {
  testEnvironment: 'node',
  // A worker per core, not jest's default of one less: most suites spend their time waiting on a
  // bff, PostgreSQL, Redis or a fixture server, so on two cores two workers take about half as long.
  maxWorkers: '100%',
  // Most suites start a bff on a fresh database (migrations, sign-ups hashed with argon2) before
  // each test: on two busy cores that can take longer than jest's 5 s, and a hook that times out
  // lets the cleanup drop the database under a start still running. Suites that need more say so.
  testTimeout: 30_000,
  // Checks PostgreSQL and Redis when the run is told to use them; says which suites it leaves out otherwise.
  globalSetup: '<rootDir>/bff/test/global-setup.ts',
  // The whole workspace (a new remote's tests run without an edit here), but not QA's Playwright
  // flows, the builds or the tools' own install.
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  // What webpack's DefinePlugin puts in a build (packages/webpack-config); a remote's contract test renders its pages.
  globals: { __APP_VERSION__: '0.0.0-test' },
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '<rootDir>/e2e/', '<rootDir>/.tools/', '<rootDir>/data/'],
  modulePathIgnorePatterns: ['<rootDir>/.tools/', '/dist/'],
  // cookie 2 and content-disposition 3 (under @fastify/cookie and @fastify/static) ship only ES
  // modules, which jest's CommonJS runtime cannot load on Node 20 (neither by require nor by
  // @fastify/cookie's dynamic import): compile them, and @fastify/cookie, to CommonJS like our code.
  transformIgnorePatterns: ['/node_modules/(?!(?:\\.pnpm/)?(?:cookie|content-disposition|@fastify[+/]cookie)[@/])'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } }],
  },
  moduleNameMapper: {
    // Every workspace package is imported by subpath (`@bimi/catalog/prices`) and maps to its source.
    '^@bimi/([a-z-]+)/(.*)$': '<rootDir>/packages/$1/src/$2',
  },
};
