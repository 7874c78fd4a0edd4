import type { CaaRecord, DnsResolver, MxRecord, SoaRecord } from './dns';

/**
 * One owner name in a fixture zone. TXT entries are either a whole record (one string) or the
 * record's character-strings as published (`['v=spf1 …', '… -all']`). `error` makes every query
 * for the name fail with that Node error code (`ETIMEOUT`, `ESERVFAIL`, …).
 */
export interface ZoneEntry {
  TXT?: (string | string[])[];
  MX?: MxRecord[];
  A?: string[];
  AAAA?: string[];
  CNAME?: string[];
  NS?: string[];
  PTR?: string[];
  SOA?: SoaRecord[];
  CAA?: CaaRecord[];
  error?: string;
}

export type Zone = Record<string, ZoneEntry>;

export interface MemoryResolver extends DnsResolver {
  /** Every query made, as `TYPE name`, so tests can see what a check looked up. */
  readonly queries: string[];
}

function dnsError(code: string, syscall: string, name: string): Error {
  return Object.assign(new Error(`${syscall} ${code} ${name}`), { code, syscall, hostname: name });
}

/**
 * A DnsResolver over a fixture zone, failing the way Node's resolver does: ENOTFOUND for a name
 * the zone does not hold, ENODATA for a name without records of the asked type, and for a name
 * with only names under it (an empty non-terminal, RFC 8020: `_bimi.x.test` over `default._bimi.x.test`).
 */
export function memoryResolver(zone: Zone): MemoryResolver {
  const entries = new Map(Object.entries(zone).map(([name, entry]) => [name.toLowerCase().replace(/\.$/, ''), entry]));
  const emptyNonTerminals = new Set<string>();
  for (const owner of entries.keys()) {
    for (let dot = owner.indexOf('.'); dot !== -1; dot = owner.indexOf('.', dot + 1)) emptyNonTerminals.add(owner.slice(dot + 1));
  }
  const queries: string[] = [];

  function answer<T>(type: keyof Omit<ZoneEntry, 'error'>, syscall: string, name: string): Promise<T[]> {
    queries.push(`${type} ${name}`);
    const key = name.toLowerCase().replace(/\.$/, '');
    const entry = entries.get(key);
    if (!entry) return Promise.reject(dnsError(emptyNonTerminals.has(key) ? 'ENODATA' : 'ENOTFOUND', syscall, name));
    if (entry.error) return Promise.reject(dnsError(entry.error, syscall, name));
    const records = entry[type] as T[] | undefined;
    if (!records || records.length === 0) return Promise.reject(dnsError('ENODATA', syscall, name));
    return Promise.resolve(records);
  }

  return {
    queries,
    resolveTxt: async (name) => (await answer<string | string[]>('TXT', 'queryTxt', name)).map((record) => (typeof record === 'string' ? [record] : record)),
    resolveMx: (name) => answer<MxRecord>('MX', 'queryMx', name),
    resolve4: (name) => answer<string>('A', 'queryA', name),
    resolve6: (name) => answer<string>('AAAA', 'queryAaaa', name),
    resolveCname: (name) => answer<string>('CNAME', 'queryCname', name),
    resolveNs: (name) => answer<string>('NS', 'queryNs', name),
    resolvePtr: (name) => answer<string>('PTR', 'queryPtr', name),
    resolveSoa: async (name) => (await answer<SoaRecord>('SOA', 'querySoa', name))[0] as SoaRecord,
    resolveCaa: (name) => answer<CaaRecord>('CAA', 'queryCaa', name),
  };
}
