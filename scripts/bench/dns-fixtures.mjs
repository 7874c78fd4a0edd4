// The tools' fixture DNS and HTTPS servers (bff/test/fixtures/tools) in a process of their own, so
// their work is not counted against the bff a benchmark measures.
import { spawn } from 'node:child_process';
import path from 'node:path';

const BFF = path.resolve(import.meta.dirname, '..', '..', 'bff');

/** @returns {Promise<{ child: import('node:child_process').ChildProcess, env: Record<string, string>, origin: string }>} the process and the bff settings that point at it */
export function startDnsFixtures() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join('test', 'fixtures', 'tools', 'serve.ts')], { cwd: BFF, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (output.includes('\n')) resolve({ child, ...JSON.parse(output.slice(0, output.indexOf('\n'))) });
    });
    child.once('exit', (code) => reject(new Error(`the DNS fixtures stopped (${code})`)));
  });
}
