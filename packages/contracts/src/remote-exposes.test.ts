import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { REMOTE_EXPOSES } from './remote-modules';

/**
 * Each remote's build exposes exactly the modules of the contract: the shell and other
 * remotes load them by these names, so renaming one is a breaking change.
 */
const ROOT = path.resolve(__dirname, '../../..');

function exposesOf(remote: string): string[] {
  const script = `
    const { default: config } = await import(${JSON.stringify(path.join(ROOT, `mfe-${remote}/webpack.config.mjs`))});
    const federation = config.plugins.find((p) => p.constructor.name === 'ModuleFederationPlugin');
    console.log(JSON.stringify(Object.keys(federation._options.exposes)));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout.trim().split('\n').pop() ?? '[]') as string[];
}

describe('remote exposes match the contract', () => {
  it.each(Object.entries(REMOTE_EXPOSES))('%s exposes %j', (remote, expected) => {
    expect(exposesOf(remote).sort()).toEqual([...expected].sort());
  });
});
