import { pass, unreachable, warn } from './checks';
import { describeLookupError, type Lookup } from './dns';
import type { Check } from './types';

/** An MX answer's host: a null MX is one host named "" (or "."). */
export interface MxHost {
  exchange: string;
  priority: number;
}

/** The hosts by priority, as `10 mx1.example.com` (a null MX as `0 .`). */
export function mxValues(hosts: readonly MxHost[]): string[] {
  return [...hosts].sort((a, b) => a.priority - b.priority).map((host) => `${host.priority} ${host.exchange.replace(/\.$/, '') || '.'}`);
}

/**
 * What a domain's MX lookup says of its mail, in the words every tool and the monitors share: the
 * lookup failed (could not check, issue 32); no MX (mail to it falls back to its address record,
 * RFC 5321 §5.1, or bounces); a null MX (it accepts no mail, and receivers may refuse mail from it,
 * RFC 7505 §4.2), or one beside other hosts (§3 makes it the only one); or its mail servers.
 */
export function mxFinding(id: string, domain: string, answer: Lookup<readonly MxHost[]>): Check {
  if (answer.status === 'error') {
    return unreachable(id, 'MX lookup failed', describeLookupError(domain, answer), 'Try again in a minute; if it keeps failing, ask your DNS host why its name servers do not answer.');
  }
  const hosts = answer.status === 'found' ? answer.value : [];
  if (hosts.length === 0) {
    return warn(
      id,
      'No MX record',
      `Mail to ${domain} falls back to its A record, or bounces.`,
      'Publish MX records for your mail servers, or a null MX (0 .) if the domain sends no mail and receives none.',
    );
  }
  const values = mxValues(hosts);
  const nulls = hosts.filter((host) => host.exchange.replace(/\.$/, '') === '').length;
  if (nulls > 0 && nulls < hosts.length) {
    return warn(
      id,
      'Null MX beside other mail servers',
      `${domain} lists a null MX (0 .) among its MX records (${values.join(', ')}); RFC 7505 §3 makes a null MX the only one, so senders may treat the domain as accepting no mail.`,
      'Remove the null MX if the domain receives mail, or keep only the null MX if it does not.',
    );
  }
  if (nulls > 0) {
    return warn(
      id,
      'Null MX: this domain accepts no mail',
      `${domain} says it accepts no mail (RFC 7505), and receivers may refuse mail from a domain that does (RFC 7505 §4.2).`,
      'Leave it so only if the domain sends no mail either; otherwise publish MX records for your mail servers.',
    );
  }
  return pass(id, `${hosts.length} mail server${hosts.length === 1 ? '' : 's'}`, values.join(', '));
}
