/**
 * The DNS this package reads through: an injected resolver, so every check is a pure function of
 * its input and the zone it is shown. The bff passes `new dns.promises.Resolver()` (pointed at
 * DNS_SERVERS); tests pass an in-memory zone (`memoryResolver` in dns-fixture.ts).
 *
 * The interface is the subset of Node's `dns.promises.Resolver` we use, so Node's resolver fits
 * it as is. Failures are thrown as errors with Node's `code`:
 * - `ENOTFOUND` (NXDOMAIN) and `ENODATA` (name exists, no record of that type) mean "no record";
 * - anything else (`ETIMEOUT`, `ESERVFAIL`, `ECONNREFUSED`, `EREFUSED`, …) is a DNS failure, which
 *   the checks report as a failed lookup ("could not be checked"), never as "missing".
 */
export interface MxRecord {
  exchange: string;
  priority: number;
}

export interface DnsResolver {
  /** Each TXT record as its character-strings (a record over 255 bytes arrives split). */
  resolveTxt(name: string): Promise<string[][]>;
  resolveMx(name: string): Promise<MxRecord[]>;
  resolve4(name: string): Promise<string[]>;
  resolve6(name: string): Promise<string[]>;
  resolveCname(name: string): Promise<string[]>;
  resolveNs?(name: string): Promise<string[]>;
  resolvePtr?(name: string): Promise<string[]>;
  /** For the all-records inspection only. */
  resolveSoa?(name: string): Promise<SoaRecord>;
  resolveCaa?(name: string): Promise<CaaRecord[]>;
}

/** Node's SOA answer shape. */
export interface SoaRecord {
  nsname: string;
  hostmaster: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minttl: number;
}

/** Node's CAA answer shape: the flags and one property (RFC 8659). */
export interface CaaRecord {
  critical: number;
  issue?: string;
  issuewild?: string;
  iodef?: string;
  contactemail?: string;
  contactphone?: string;
}

/** Node's error codes for "the answer is: nothing here" (RFC 7208 §4.6.4 calls these void lookups). */
const NO_RECORD_CODES = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'NODATA']);

/** The outcome of one lookup with the error already sorted into "none" or "failed". */
export type Lookup<T> = { status: 'found'; value: T } | { status: 'none'; code: string } | { status: 'error'; code: string; message: string };

export function errorCode(error: unknown): string {
  if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  return 'EUNKNOWN';
}

/** Runs one resolver call and sorts its failure; a resolver that throws anything never escapes. */
export async function lookup<T>(query: () => Promise<T>): Promise<Lookup<T>> {
  try {
    const value = await query();
    // An empty answer is what "no record" looks like from resolvers that do not throw ENODATA.
    if (Array.isArray(value) && value.length === 0) return { status: 'none', code: 'ENODATA' };
    return { status: 'found', value };
  } catch (error) {
    const code = errorCode(error);
    if (NO_RECORD_CODES.has(code)) return { status: 'none', code };
    const message = error instanceof Error ? error.message : String(error);
    return { status: 'error', code, message };
  }
}

/**
 * Whether `domain` exists in DNS, as RFC 8020 reads an answer: NXDOMAIN says there is nothing at
 * or under the name; records, or NODATA (the name has records of other types, or only names under
 * it, as `_bimi.example.com` has over `default._bimi.example.com`), say it exists. It is asked with
 * type CNAME, which a resolver answers for the name itself instead of following: a name whose CNAME
 * points nowhere has a record of its own and exists, where a TXT or SOA query carries its target's
 * NXDOMAIN (RFC 6604), and a name that is a CNAME answers an SOA query with a bare CNAME. A failed
 * lookup (timeout, SERVFAIL) is no answer: the name is taken to exist, and the checks say what
 * could not be looked up. Add Monitor and the tools' "does not exist" verdict ask this, and so does
 * the DMARC tree walk for `np=`.
 */
export async function domainExists(domain: string, dns: Pick<DnsResolver, 'resolveCname'>): Promise<boolean> {
  const answer = await lookup(() => dns.resolveCname(domain));
  return !(answer.status === 'none' && (answer.code === 'ENOTFOUND' || answer.code === 'NXDOMAIN'));
}

/** TXT records at `name`, each record's strings kept apart (SPF checks the 255-byte strings). */
export function lookupTxt(dns: DnsResolver, name: string): Promise<Lookup<string[][]>> {
  return lookup(() => dns.resolveTxt(name));
}

/** Words for a failed lookup, used in every "could not be checked" check. */
export function describeLookupError(name: string, failure: { code: string; message: string }): string {
  const reasons: Record<string, string> = {
    ETIMEOUT: 'the DNS server did not answer in time',
    ESERVFAIL: "the domain's name servers answered with a server failure (SERVFAIL)",
    ECONNREFUSED: 'the DNS server refused the connection',
    EREFUSED: 'the DNS server refused the query',
    EBADNAME: 'the name is not a valid DNS name',
    ECANCELLED: 'the query was cancelled',
  };
  return `Looking up ${name} failed: ${reasons[failure.code] ?? failure.message} (${failure.code}).`;
}

/**
 * The same resolver, asking DNS once per TXT name: an inspection that reads a name twice (RFC 7489
 * and RFC 9989 discovery both start at `_dmarc.<domain>`) costs one query.
 */
export function withTxtCache(dns: DnsResolver): DnsResolver {
  const answers = new Map<string, Promise<string[][]>>();
  return {
    ...dns,
    resolveTxt(name) {
      const key = name.toLowerCase();
      let pending = answers.get(key);
      if (!pending) {
        pending = dns.resolveTxt(name);
        answers.set(key, pending);
      }
      return pending;
    },
  };
}
