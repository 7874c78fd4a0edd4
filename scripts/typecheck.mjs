#!/usr/bin/env node
// Type checks every project of the workspace (TypeScript 7, strict, one shared base config).
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { FRONTEND_APPS } from './apps.mjs';
import { ROOT, fail, run } from './toolchain.mjs';

// Every workspace package with a tsconfig.json (webpack-config is plain JavaScript and has none).
const PACKAGES = readdirSync(path.join(ROOT, 'packages'))
  .filter((name) => existsSync(path.join(ROOT, 'packages', name, 'tsconfig.json')))
  .sort()
  .map((name) => `packages/${name}`);
const PROJECTS = [...FRONTEND_APPS, 'bff', ...PACKAGES, 'e2e'];

try {
  for (const project of PROJECTS) {
    const tsconfig = path.join(project, 'tsconfig.json');
    if (!existsSync(path.join(ROOT, tsconfig))) throw new Error(`${tsconfig} is missing`);
    console.log(`tsc -p ${tsconfig}`);
    await run('tsc', ['-p', tsconfig]);
  }
  console.log(`type check passed: ${PROJECTS.length} projects`);
} catch (error) {
  fail(error);
}
