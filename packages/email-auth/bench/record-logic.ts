/**
 * How fast the record logic is, without the network: parsers, builders, the SVG check, and the
 * SPF walk over an in-memory zone. Prints numbers; run `npx tsx packages/email-auth/bench/record-logic.ts`.
 */
import { generateKeyPairSync } from 'node:crypto';
import { buildDkimRecord, parseDkim } from '../src/dkim';
import { inspectDmarc } from '../src/dmarc';
import { buildDmarcRecord, parseDmarc } from '../src/dmarc-record';
import { memoryResolver, type Zone } from '../src/memory-resolver';
import { inspectSpf, parseSpf } from '../src/spf';
import { evaluateSpf } from '../src/spf-evaluate';
import { expandMacros, parseClientIp } from '../src/spf-macro';
import { checkSvgTinyPs } from '../src/svg';

function measure(name: string, run: () => unknown, iterations: number) {
  for (let index = 0; index < Math.min(iterations, 200); index += 1) run();
  const start = performance.now();
  for (let index = 0; index < iterations; index += 1) run();
  const perCall = (performance.now() - start) / iterations;
  console.log(`${name.padEnd(44)} ${(1000 / perCall).toFixed(0).padStart(9)} per second  ${(perCall * 1000).toFixed(1).padStart(8)} µs each`);
}

async function measureAsync(name: string, run: () => Promise<unknown>, iterations: number) {
  const start = performance.now();
  for (let index = 0; index < iterations; index += 1) await run();
  const perCall = (performance.now() - start) / iterations;
  console.log(`${name.padEnd(44)} ${(1000 / perCall).toFixed(0).padStart(9)} per second  ${(perCall * 1000).toFixed(1).padStart(8)} µs each`);
}

const dmarc = 'v=DMARC1; p=reject; sp=quarantine; pct=100; adkim=s; aspf=r; fo=1; rua=mailto:a@example.com,mailto:b@vendor.example; ruf=mailto:f@example.com';
const spf = 'v=spf1 a mx ip4:192.0.2.0/24 ip4:198.51.100.0/24 ip6:2001:db8::/32 include:_spf.google.com include:spf.protection.outlook.com ~all';
const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const paths = Array.from(
  { length: 300 },
  (_, index) => `<path d="M${index} ${index}L${index + 10} ${index + 20}Z" fill="#${(index * 4099).toString(16).padStart(6, '0').slice(0, 6)}"/>`,
).join('');
const svg = `<svg xmlns="http://www.w3.org/2000/svg" version="1.2" baseProfile="tiny-ps" viewBox="0 0 512 512"><title>Brand</title>${paths}</svg>`;

measure('parseDmarc (full record)', () => parseDmarc(dmarc), 20_000);
measure('parseSpf (9 terms)', () => parseSpf(spf), 20_000);
measure('parseDkim (2048-bit RSA key size)', () => parseDkim(`v=DKIM1; k=rsa; p=${key}`), 5_000);
measure('buildDmarcRecord', () => buildDmarcRecord({ p: 'reject', rua: ['a@example.com'], pct: 100 }), 20_000);
measure('buildDkimRecord (2048-bit PEM)', () => buildDkimRecord({ selector: 's1', publicKey: key }), 5_000);
measure(`checkSvgTinyPs (${(svg.length / 1024).toFixed(0)} KB, 300 paths)`, () => checkSvgTinyPs(svg), 300);

// A ten-level include chain (eleven lookups) and a wide tree of 40 includes, answered from memory.
const zone: Zone = {
  'chain.test': { TXT: ['v=spf1 include:c0.test -all'] },
  ...Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`c${index}.test`, { TXT: [`v=spf1 ${index < 9 ? `include:c${index + 1}.test ` : ''}ip4:192.0.2.${index} -all`] }])),
  'wide.test': { TXT: [`v=spf1 ${Array.from({ length: 40 }, (_, index) => `include:w${index}.test`).join(' ')} -all`] },
  ...Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`w${index}.test`, { TXT: [`v=spf1 ip4:198.51.100.${index} -all`] }])),
  '_dmarc.example.com': { TXT: [dmarc] },
  'example.com._report._dmarc.vendor.example': { TXT: ['v=DMARC1'] },
};
const dns = memoryResolver(zone);
// tsx runs this file as CommonJS, where there is no top-level await.
void (async () => {
  await measureAsync('inspectSpf (10-level include chain)', () => inspectSpf('chain.test', dns), 2_000);
  await measureAsync('inspectSpf (40 includes, walk bounded)', () => inspectSpf('wide.test', dns), 2_000);
  await measureAsync('inspectDmarc (record + report authorization)', () => inspectDmarc('example.com', dns), 5_000);
  await measureAsync('evaluateSpf (pass at the end of the chain)', () => evaluateSpf({ ip: '192.0.2.9', domain: 'chain.test' }, dns), 2_000);
  await measureAsync('evaluateSpf (permerror at the 11th of 40)', () => evaluateSpf({ ip: '203.0.113.1', domain: 'wide.test' }, dns), 2_000);
  const ip = parseClientIp('2001:db8::cb01')!;
  await measureAsync(
    'expandMacros (%{ir}.%{v}._spf.%{d2}, IPv6)',
    () => expandMacros('%{ir}.%{v}._spf.%{d2}', 'domain-spec', { sender: 'a@email.example.com', domain: 'email.example.com', ip, helo: 'mx.example.org' }),
    20_000,
  );
})();
