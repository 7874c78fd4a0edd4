/**
 * What this package answers, described by the package itself: a check is a finding about a
 * record, a DNS record is what was read. The API contract (`@bimi/contracts/tools`) describes the
 * same shapes for the wire; the bff passes these through, and the type check holds the two
 * together (a change here that the contract cannot carry fails `tsc` in the bff).
 */
/**
 * `fail`: the record is wrong; `absent`: there is no record (nothing wrong in it, nothing there);
 * `unreachable`: we could not fetch or resolve it, so we cannot say (retryable); `warn`: works,
 * with something to change; `pass`; `info`: worth knowing, graded nothing.
 */
export type CheckStatus = 'pass' | 'warn' | 'fail' | 'info' | 'unreachable' | 'absent';

export interface Check {
  /** Stable dotted identifier, e.g. `dmarc.policy.none`; tests and the UI key on it. */
  id: string;
  status: CheckStatus;
  title: string;
  detail: string;
  /** What to change, in plain words; every `warn` and `fail` has one. */
  fix?: string;
}

/** A DNS record as published: the owner name, type and value (TXT strings joined). */
export interface DnsRecord {
  name: string;
  type: string;
  value: string;
  ttl?: number;
}
