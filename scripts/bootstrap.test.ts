/**
 * The bootstrap tier: `npm start` and `npm test` run on a fresh clone before anything is installed,
 * so the static import graph of their scripts may hold only `node:` built-ins and relative files,
 * and none of those files may require a package while it loads. Build tools are loaded inside the
 * function that uses them, after the install. Node's own module parser lists each file's imports.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const ENTRIES = ['scripts/start.mjs', 'scripts/test.mjs'];

/** The static import specifiers of one ES module, as Node parses them (dynamic import() is not one). */
function staticImports(file: string): string[] {
  const script = `
    const { SourceTextModule } = require('node:vm');
    const module = new SourceTextModule(require('node:fs').readFileSync(process.argv[1], 'utf8'));
    const specifiers = module.moduleRequests ? module.moduleRequests.map((request) => request.specifier) : module.dependencySpecifiers;
    process.stdout.write(JSON.stringify(specifiers));`;
  const result = spawnSync(process.execPath, ['--no-warnings', '--experimental-vm-modules', '-e', script, file], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`could not parse ${file}: ${result.stderr}`);
  return JSON.parse(result.stdout) as string[];
}

/** Every file the entries (paths from the root, or absolute) reach through static imports, and what each loads that is not allowed. */
function bootstrapGraph(entries: string[]) {
  const files = new Set<string>();
  const problems: string[] = [];
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const name = path.relative(ROOT, file);
    for (const specifier of staticImports(file)) {
      if (specifier.startsWith('./') || specifier.startsWith('../')) visit(path.resolve(path.dirname(file), specifier));
      else if (!specifier.startsWith('node:')) problems.push(`${name} imports '${specifier}'`);
    }
    // A require made with createRequire at the top of a file runs while it loads.
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (/^\S.*createRequire\(/.test(line) && !/^import\b/.test(line)) problems.push(`${name}:${index + 1} calls createRequire at load`);
      });
  };
  for (const entry of entries) visit(path.resolve(ROOT, entry));
  return { files: [...files].map((file) => path.relative(ROOT, file)).sort(), problems };
}

describe('the bootstrap tier (what runs before the install)', () => {
  it('reaches only node: built-ins and relative files from npm start and npm test', () => {
    const { files, problems } = bootstrapGraph(ENTRIES);
    expect(files).toEqual(expect.arrayContaining(['scripts/start.mjs', 'scripts/test.mjs', 'scripts/toolchain.mjs', 'scripts/builds.mjs']));
    expect(problems).toEqual([]);
  });

  it('finds a package imported through a relative file, and a package required at load', () => {
    // The kind that broke a fresh clone's npm start: start.mjs imported a helper that required esbuild at load.
    const dir = mkdtempSync(path.join(tmpdir(), 'bootstrap-'));
    try {
      writeFileSync(path.join(dir, 'entry.mjs'), "import { helper } from './helper.mjs';\nimport { build } from './builder.mjs';\nhelper(build);\n");
      writeFileSync(path.join(dir, 'helper.mjs'), "import path from 'node:path';\nimport esbuild from 'esbuild';\nexport const helper = () => path;\n");
      writeFileSync(
        path.join(dir, 'builder.mjs'),
        "import { createRequire } from 'node:module';\nconst webpack = createRequire(import.meta.url)('webpack');\nexport function build() {\n  return createRequire(import.meta.url)('esbuild');\n}\n",
      );
      const { files, problems } = bootstrapGraph([path.join(dir, 'entry.mjs')]);
      expect(files).toHaveLength(3);
      expect(problems).toEqual([expect.stringMatching(/helper\.mjs imports 'esbuild'$/), expect.stringMatching(/builder\.mjs:2 calls createRequire at load$/)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
