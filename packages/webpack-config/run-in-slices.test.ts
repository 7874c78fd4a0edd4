import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import webpack from 'webpack';
import { NAMED_MODULE_MIN_BYTES, RunInSlicesPlugin, SLICE_MS } from './run-in-slices.js';

// A page loaded by import(): it imports a small module that sets something up, two large modules
// (the second imports a third), a small one and an import cycle, and has an eager import() it never
// calls. Each module notes its name and the macrotask it ran in; the large ones work longer than a slice.
const PADDING = `/*${'x'.repeat(NAMED_MODULE_MIN_BYTES)}*/`;
const busy = `const until = performance.now() + ${SLICE_MS + 3}; while (performance.now() < until);`;
/** What each module noted, in the order they ran: its name, its macrotask, and what it saw. */
type Ran = [string, number, unknown?][];

const FILES: Record<string, string> = {
  // The browser's scheduler.yield, as Node can: a task after the ones already queued.
  'entry.js': `
    globalThis.scheduler = { yield: () => new Promise((resolve) => setImmediate(resolve)) };
    globalThis.ran = [];
    globalThis.tick = 0;
    let done = false;
    const next = () => { globalThis.tick++; if (!done) setImmediate(next); };
    setImmediate(next);
    import('./page.js').then(() => { done = true; console.log(JSON.stringify(globalThis.ran)); });`,
  'page.js': `
    import './setup.js'; import './large-a.js'; import './large-b.js'; import './small.js'; import { a } from './cycle-a.js';
    export const later = () => import(/* webpackMode: "eager" */ './later.js');
    ran.push(['page', tick, a]);`,
  'setup.js': `globalThis.configured = true; ran.push(['setup', tick]);`,
  'large-a.js': `${PADDING} ${busy} ran.push(['a', tick, globalThis.configured === true]);`,
  'large-b.js': `${PADDING} import './large-c.js'; ${busy} ran.push(['b', tick]);`,
  'large-c.js': `${PADDING} ran.push(['c', tick]);`,
  'small.js': `ran.push(['small', tick]);`,
  'cycle-a.js': `import { b } from './cycle-b.js'; ran.push(['cycle-a', tick]); export const a = 'a'; export const fromB = b;`,
  'cycle-b.js': `${PADDING} import { a } from './cycle-a.js'; ran.push(['cycle-b', tick]); export const b = () => a;`,
  'later.js': `${PADDING} ran.push(['later', tick]);`,
};

describe('the modules a block needs, run a few a task', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'run-in-slices-'));
    for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(dir, name), text);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Builds the fixture (with or without the plugin) for Node and runs it: each module's name and macrotask, in the order they ran. */
  async function buildAndRun(withPlugin: boolean): Promise<{ ran: Ran; chunks: string }> {
    const output = path.join(dir, withPlugin ? 'sliced' : 'plain');
    const stats = await new Promise<webpack.Stats>((resolve, reject) =>
      webpack(
        {
          mode: 'none',
          context: dir,
          entry: './entry.js',
          target: 'node',
          output: { path: output, filename: 'main.js' },
          optimization: { moduleIds: 'named', chunkIds: 'named' },
          plugins: withPlugin ? [new RunInSlicesPlugin()] : [],
        },
        (error, result) => (error || !result ? reject(error) : resolve(result)),
      ),
    );
    expect(stats.hasErrors()).toBe(false);
    const ran = JSON.parse(execFileSync(process.execPath, [path.join(output, 'main.js')], { encoding: 'utf8' }).trim());
    const chunks = readdirSync(output)
      .map((file) => readFileSync(path.join(output, file), 'utf8'))
      .join('\n');
    return { ran, chunks };
  }

  it('runs the same modules in the same order as webpack, with the browser let in between the slices', async () => {
    const plain = await buildAndRun(false);
    const sliced = await buildAndRun(true);
    const names = (ran: Ran) => ran.map(([name]) => name);
    expect(names(plain.ran)).toEqual(['setup', 'a', 'c', 'b', 'small', 'cycle-b', 'cycle-a', 'page']);
    expect(sliced.ran.map(([name, , note]) => [name, note])).toEqual(plain.ran.map(([name, , note]) => [name, note]));
    // The large module ran after the small one that sets things up; the cycle was entered where
    // webpack enters it (cycle-b saw cycle-a's export), and the eager import() nobody called never ran.
    expect(sliced.ran.find(([name]) => name === 'a')?.[2]).toBe(true);
    expect(sliced.ran.find(([name]) => name === 'page')?.[2]).toBe('a');

    // Without the plugin, everything ran in one task.
    expect(new Set(plain.ran.map(([, tick]) => tick)).size).toBe(1);
    // With it, a task came after each large module that took a slice: a, then c and b, then the rest.
    const tickOf = Object.fromEntries(sliced.ran.map(([name, tick]) => [name, tick]));
    expect(tickOf.c).toBeGreaterThan(tickOf.a);
    expect(tickOf.b).toBe(tickOf.c);
    expect(tickOf.small).toBeGreaterThan(tickOf.b);
    expect(tickOf.page).toBe(tickOf.small);
  });

  it('names the modules up to the import cycle, in the order they run, and leaves the block itself to its importer', async () => {
    const { chunks } = await buildAndRun(true);
    expect(chunks).toContain('__webpack_require__.runInSlices(__webpack_require__.e(/* import() */ "page_js"), ["./setup.js","./large-a.js","./large-c.js","./large-b.js","./small.js"])');
  });
});
