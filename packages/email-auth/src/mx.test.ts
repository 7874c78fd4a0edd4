import { inspectRecords } from './dns-records';
import { memoryResolver } from './memory-resolver';
import { mxFinding } from './mx';

/** The records tool and the monitors judge a domain's MX with mxFinding: the same status and words. */
describe('mxFinding', () => {
  const zone = memoryResolver({
    'servers.test': {
      A: ['192.0.2.1'],
      MX: [
        { exchange: 'mx2.servers.test', priority: 20 },
        { exchange: 'mx1.servers.test', priority: 10 },
      ],
    },
    'none.test': { A: ['192.0.2.1'] },
    'null.test': { A: ['192.0.2.1'], MX: [{ exchange: '', priority: 0 }] },
    'down.test': { error: 'ETIMEOUT' },
    'mixed.test': {
      A: ['192.0.2.1'],
      MX: [
        { exchange: '', priority: 0 },
        { exchange: 'mx1.mixed.test', priority: 10 },
      ],
    },
  });

  it.each([
    ['servers.test', 'pass', '2 mail servers', '10 mx1.servers.test, 20 mx2.servers.test'],
    ['none.test', 'warn', 'No MX record', 'Mail to none.test falls back to its A record, or bounces.'],
    ['null.test', 'warn', 'Null MX: this domain accepts no mail', 'null.test says it accepts no mail (RFC 7505), and receivers may refuse mail from a domain that does (RFC 7505 §4.2).'],
    [
      'mixed.test',
      'warn',
      'Null MX beside other mail servers',
      'mixed.test lists a null MX (0 .) among its MX records (0 ., 10 mx1.mixed.test); RFC 7505 §3 makes a null MX the only one, so senders may treat the domain as accepting no mail.',
    ],
  ])('%s: %s, "%s", in the records tool as in the monitors', async (domain, status, title, detail) => {
    const hosts = await zone.resolveMx(domain).catch(() => []);
    const finding = mxFinding('records.mx', domain, hosts.length > 0 ? { status: 'found', value: hosts } : { status: 'none', code: 'ENODATA' });
    expect(finding).toMatchObject({ status, title, detail });
    const records = await inspectRecords(domain, zone);
    expect(records.checks.find((check) => check.id === 'records.mx')).toEqual(finding);
  });

  it('a lookup that failed is could not check, in both', async () => {
    const records = await inspectRecords('down.test', zone);
    expect(records.checks.find((check) => check.id === 'records.mx')).toMatchObject({ status: 'unreachable', title: 'MX lookup failed' });
    expect(mxFinding('mx.records', 'down.test', { status: 'error', code: 'ETIMEOUT', message: 'timeout' })).toMatchObject({ status: 'unreachable', title: 'MX lookup failed' });
  });
});
