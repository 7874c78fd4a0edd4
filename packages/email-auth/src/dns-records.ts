import { fail, info, pass, unreachable, warn } from './checks';
import { describeLookupError, domainExists, lookup, type DnsResolver, type Lookup } from './dns';
import { DMARC_VERSION } from './dmarc-record';
import { mxFinding, mxValues, type MxHost } from './mx';
import { organizationalDomain } from './domain';
import type { Check, DnsRecord } from './types';

/**
 * The TXT, CNAME and all-records inspections: plain lookups through the injected resolver, each
 * failure its own check, never a throw. The bff answers /api/tools/{txt,cname,records} with them.
 */

/** What an inspection without a score answers (the TXT, CNAME and records tools). */
export interface Findings<Details> {
  records: DnsRecord[];
  checks: Check[];
  details?: Details;
}

export interface TxtDetails {
  /** False when the name does not exist at all (NXDOMAIN). */
  exists: boolean;
  records: { value: string; strings: string[]; kind?: string }[];
}

export interface CnameDetails {
  /** The name, then each alias target in turn. */
  chain: string[];
  addresses?: string[];
}

export interface RecordsDetails {
  lookups: { id: string; name: string; type: string; status: 'found' | 'none' | 'error'; count: number }[];
}

/** CAA property tags as Node's resolver names them (RFC 8659). */
const CAA_TAGS = ['issue', 'issuewild', 'iodef', 'contactemail', 'contactphone'] as const;

/** What a TXT record is for, from its opening tag or prefix. */
export function txtKind(text: string): string | undefined {
  const kinds: [RegExp, string][] = [
    [/^v=spf1(\s|$)/i, 'SPF'],
    [DMARC_VERSION, 'DMARC'],
    [/^v=DKIM1\s*(;|$)/i, 'DKIM'],
    [/^v=BIMI1\s*(;|$)/i, 'BIMI'],
    [/^v=STSv1\s*(;|$)/i, 'MTA-STS'],
    [/^v=TLSRPTv1\s*(;|$)/i, 'TLS-RPT'],
    [/^[a-z0-9-]*(site-)?verification[=:]/i, 'domain verification'],
  ];
  return kinds.find(([pattern]) => pattern.test(text))?.[1];
}

/** A lookup that failed: could not check, never what is wrong (issue 32). */
function failedLookup(id: string, title: string, name: string, result: Extract<Lookup<unknown>, { status: 'error' }>): Check {
  return unreachable(id, title, describeLookupError(name, result), 'Try again in a minute; if it keeps failing, ask your DNS host why its name servers do not answer.');
}

export async function inspectTxt(name: string, dns: DnsResolver): Promise<Findings<TxtDetails>> {
  const result = await lookup(() => dns.resolveTxt(name));
  if (result.status === 'error') return { records: [], checks: [failedLookup('txt.lookup', 'TXT lookup failed', name, result)] };
  if (result.status === 'none') {
    // NXDOMAIN for TXT may be an alias's target's: whether the name exists is asked of the name itself.
    const exists = (result.code !== 'ENOTFOUND' && result.code !== 'NXDOMAIN') || (await domainExists(name, dns));
    const detail = exists ? `${name} exists but has no TXT record.` : `${name} does not exist in DNS.`;
    return { records: [], checks: [info('txt.lookup', 'No TXT record', detail)], details: { exists, records: [] } };
  }
  const entries = result.value.map((strings) => ({ value: strings.join(''), strings, kind: txtKind(strings.join('')) }));
  const records: DnsRecord[] = entries.map((entry) => ({ name, type: 'TXT', value: entry.value }));
  const checks: Check[] = [
    pass('txt.lookup', `${entries.length} TXT record${entries.length === 1 ? '' : 's'}`, `${name} publishes ${entries.length} TXT record${entries.length === 1 ? '' : 's'}.`),
  ];
  const kinds = entries.map((entry) => entry.kind).filter((kind): kind is string => kind !== undefined);
  if (kinds.length) checks.push(info('txt.kinds', 'Recognized records', `Found: ${[...new Set(kinds)].join(', ')}.`));
  for (const kind of ['SPF', 'DMARC', 'BIMI']) {
    const count = kinds.filter((found) => found === kind).length;
    if (count > 1) {
      checks.push(
        fail(
          `txt.duplicate.${kind.toLowerCase()}`,
          `${count} ${kind} records`,
          `Receivers ignore all ${kind} records at a name that has more than one.`,
          `Merge them into one ${kind} record and delete the others.`,
        ),
      );
    }
  }
  return { records, checks, details: { exists: true, records: entries } };
}

export async function inspectCname(name: string, dns: DnsResolver): Promise<Findings<CnameDetails>> {
  const chain = [name];
  const records: DnsRecord[] = [];
  const checks: Check[] = [];
  for (;;) {
    const current = chain[chain.length - 1] as string;
    const result = await lookup(() => dns.resolveCname(current));
    if (result.status === 'error') {
      checks.push(failedLookup('cname.lookup', 'CNAME lookup failed', current, result));
      return { records, checks, details: { chain } };
    }
    if (result.status === 'none') break;
    const target = (result.value[0] as string).toLowerCase().replace(/\.$/, '');
    records.push({ name: current, type: 'CNAME', value: target });
    if (chain.includes(target)) {
      checks.push(
        fail('cname.loop', 'CNAME loop', `${chain.join(' → ')} → ${target} points back to itself, so the name never resolves.`, `Point ${current} at a name that holds an address.`),
      );
      return { records, checks, details: { chain: [...chain, target] } };
    }
    chain.push(target);
    if (chain.length > 8) {
      checks.push(fail('cname.chain', 'CNAME chain too long', `${chain.join(' → ')}: resolvers give up on chains this long.`, `Point ${name} at the final name directly.`));
      return { records, checks, details: { chain } };
    }
  }
  if (records.length === 0) {
    return { records, checks: [info('cname.lookup', 'No CNAME record', `${name} is not an alias; it holds its own records (or none).`)], details: { chain } };
  }
  const target = chain[chain.length - 1] as string;
  checks.push(pass('cname.lookup', `Alias of ${target}`, `${chain.join(' → ')}${chain.length > 2 ? ` (${chain.length - 1} hops)` : ''}.`));
  if (organizationalDomain(name) === name) {
    checks.push(
      fail(
        'cname.apex',
        'CNAME at the domain apex',
        `${name} is a whole domain; a CNAME there hides its MX, TXT (SPF, verification) and NS records.`,
        'Replace it with A/AAAA records, or your DNS host’s ALIAS/flattened record.',
      ),
    );
  }
  const [v4, v6] = await Promise.all([lookup(() => dns.resolve4(target)), lookup(() => dns.resolve6(target))]);
  const addresses = [...(v4.status === 'found' ? v4.value : []), ...(v6.status === 'found' ? v6.value : [])];
  if (addresses.length) {
    checks.push(pass('cname.target', 'Target resolves', `${target} has ${addresses.length} address${addresses.length === 1 ? '' : 'es'}: ${addresses.join(', ')}.`));
  } else if (v4.status === 'error' || v6.status === 'error') {
    checks.push(failedLookup('cname.target', 'Target lookup failed', target, (v4.status === 'error' ? v4 : v6) as Extract<Lookup<unknown>, { status: 'error' }>));
  } else {
    checks.push(
      warn(
        'cname.target',
        'Dangling CNAME',
        `${target} has no address, so ${name} leads nowhere; if that name can be claimed by someone else (a deleted cloud resource), they control ${name}.`,
        `Delete the CNAME at ${name}, or point it at a name you still use.`,
      ),
    );
  }
  return { records, checks, details: { chain, addresses } };
}

interface RecordLookup {
  id: string;
  label: string;
  type: string;
  name: (domain: string) => string;
  run: (dns: DnsResolver, name: string) => Promise<string[]>;
  /** Which found values belong to this record (the SPF among the TXT records…). */
  keep?: (value: string) => boolean;
  /** How to judge what was found; default: found is a pass, none is information. */
  judge?: (values: string[], name: string) => Check;
  missing?: (name: string) => Check;
}

/** `10 mx1.example.com` (or `0 .`, a null MX) back to the host DNS answered. */
function mxHostOf(value: string): MxHost {
  const [priority = '0', exchange = ''] = value.split(' ');
  return { priority: Number(priority), exchange: exchange === '.' ? '' : exchange };
}

const joinTxt = (records: string[][]) => records.map((strings) => strings.join(''));

const RECORD_LOOKUPS: RecordLookup[] = [
  { id: 'a', label: 'A', type: 'A', name: (d) => d, run: (dns, n) => dns.resolve4(n) },
  { id: 'aaaa', label: 'AAAA', type: 'AAAA', name: (d) => d, run: (dns, n) => dns.resolve6(n) },
  {
    id: 'mx',
    label: 'MX',
    type: 'MX',
    name: (d) => d,
    run: async (dns, n) => mxValues(await dns.resolveMx(n)),
    // The monitors' words (mxFinding), read back from the values listed.
    judge: (values, name) => mxFinding('records.mx', name, { status: 'found', value: values.map(mxHostOf) }),
    missing: (name) => mxFinding('records.mx', name, { status: 'none', code: 'ENODATA' }),
  },
  { id: 'ns', label: 'NS', type: 'NS', name: (d) => d, run: async (dns, n) => (dns.resolveNs ? dns.resolveNs(n) : []) },
  {
    id: 'soa',
    label: 'SOA',
    type: 'SOA',
    name: (d) => d,
    run: async (dns, n) => {
      if (!dns.resolveSoa) return [];
      const soa = await dns.resolveSoa(n);
      return [`${soa.nsname} ${soa.hostmaster} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minttl}`];
    },
  },
  { id: 'txt', label: 'TXT', type: 'TXT', name: (d) => d, run: async (dns, n) => joinTxt(await dns.resolveTxt(n)) },
  {
    id: 'caa',
    label: 'CAA',
    type: 'CAA',
    name: (d) => d,
    run: async (dns, n) =>
      (dns.resolveCaa ? await dns.resolveCaa(n) : []).map((caa) => {
        const [tag, value] = CAA_TAGS.map((key) => [key, caa[key]] as const).find(([, found]) => found !== undefined) ?? ['', ''];
        return `${caa.critical} ${tag} "${String(value)}"`;
      }),
    missing: (name) => info('records.caa', 'No CAA record', `Any certificate authority may issue certificates for ${name}.`),
  },
  {
    id: 'dmarc',
    label: 'DMARC',
    type: 'TXT',
    name: (d) => `_dmarc.${d}`,
    run: async (dns, n) => joinTxt(await dns.resolveTxt(n)),
    keep: (value) => txtKind(value) === 'DMARC',
    missing: (name) =>
      warn(
        'records.dmarc',
        'No DMARC record',
        `${name} has no DMARC policy, so nothing tells receivers what to do with mail that fails SPF and DKIM.`,
        'Publish one; the DMARC inspector and generator help.',
      ),
  },
  {
    id: 'spf',
    label: 'SPF',
    type: 'TXT',
    name: (d) => d,
    run: async (dns, n) => joinTxt(await dns.resolveTxt(n)),
    keep: (value) => txtKind(value) === 'SPF',
    judge: (values, name) =>
      values.length > 1
        ? fail('records.spf', `${values.length} SPF records`, `${name} has more than one SPF record, which makes SPF fail for every message.`, 'Merge them into one record.')
        : pass('records.spf', 'SPF record', values[0] ?? ''),
    missing: (name) => warn('records.spf', 'No SPF record', `${name} does not say which servers send its mail.`, 'Publish an SPF record; the SPF checker explains how.'),
  },
  { id: 'bimi', label: 'BIMI', type: 'TXT', name: (d) => `default._bimi.${d}`, run: async (dns, n) => joinTxt(await dns.resolveTxt(n)), keep: (value) => txtKind(value) === 'BIMI' },
  { id: 'mta-sts', label: 'MTA-STS', type: 'TXT', name: (d) => `_mta-sts.${d}`, run: async (dns, n) => joinTxt(await dns.resolveTxt(n)), keep: (value) => txtKind(value) === 'MTA-STS' },
  { id: 'tls-rpt', label: 'TLS-RPT', type: 'TXT', name: (d) => `_smtp._tls.${d}`, run: async (dns, n) => joinTxt(await dns.resolveTxt(n)), keep: (value) => txtKind(value) === 'TLS-RPT' },
];

/** Every record type and mail record at once; the lookups run in parallel (the TXT at the domain once). */
export async function inspectRecords(domain: string, dns: DnsResolver): Promise<Findings<RecordsDetails>> {
  const shared = new Map<string, Promise<Lookup<string[]>>>();
  const results = await Promise.all(
    RECORD_LOOKUPS.map(async (spec) => {
      const name = spec.name(domain);
      const key = `${spec.type} ${name}`;
      // SPF and TXT read the same answer; ask DNS once.
      const pending = spec.type === 'TXT' && shared.has(key) ? (shared.get(key) as Promise<Lookup<string[]>>) : lookup(() => spec.run(dns, name));
      if (spec.type === 'TXT') shared.set(key, pending);
      return { spec, name, result: await pending };
    }),
  );
  const records: DnsRecord[] = [];
  const checks: Check[] = [];
  const lookups: RecordsDetails['lookups'] = [];
  for (const { spec, name, result } of results) {
    const id = `records.${spec.id}`;
    if (result.status === 'error') {
      checks.push(failedLookup(id, `${spec.label} lookup failed`, name, result));
      lookups.push({ id: spec.id, name, type: spec.type, status: 'error', count: 0 });
      continue;
    }
    const values = result.status === 'found' ? result.value.filter(spec.keep ?? (() => true)) : [];
    lookups.push({ id: spec.id, name, type: spec.type, status: values.length ? 'found' : 'none', count: values.length });
    if (values.length === 0) {
      checks.push(spec.missing?.(name) ?? info(id, `No ${spec.label} record`, `${name} has no ${spec.label} record.`));
      continue;
    }
    if (spec.id !== 'spf') records.push(...values.map((value) => ({ name, type: spec.type, value })));
    checks.push(spec.judge?.(values, name) ?? pass(id, `${spec.label} record${values.length === 1 ? '' : 's'}`, values.join(' · ')));
  }
  return { records, checks, details: { lookups } };
}
