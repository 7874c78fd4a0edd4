/** One jest run for the whole workspace: unit tests beside the code, bff API tests through fastify.inject. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/bff', '<rootDir>/shell', '<rootDir>/mfe-storefront', '<rootDir>/mfe-checkout', '<rootDir>/mfe-account', '<rootDir>/mfe-tools', '<rootDir>/scripts'],
  testMatch: ['**/*.test.ts', '**/*.test.tsx'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript', tsx: true }, transform: { react: { runtime: 'automatic' } } } }],
  },
  moduleNameMapper: {
    '^@bimi/(contracts|ui|cart)/(.*)$': '<rootDir>/packages/$1/src/$2',
  },
};
