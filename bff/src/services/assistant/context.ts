import type { AssistantContext, ConversationEntry, MonitorSnapshot } from '@bimi/contracts/monitors';

/**
 * Spec §3's assistant context, with fullDomainData stripped of what must not leave the store for
 * an outside model: key material (DKIM p= values, PEM blocks, the logo and certificate images),
 * tokens (domain-verification values and other long random strings), contact e-mail addresses (DMARC
 * rua=/ruf= and any other), and internal ids (UUIDs, fingerprints, serial numbers). Stripped by
 * key and by pattern, over every string, so a new field cannot carry them out unnoticed.
 */

/** Keys dropped wherever they appear. */
const SECRET_KEYS = new Set(['id', 'monitorId', 'userId', 'user_id', 'monitor_id', 'pem', 'dataUrl', 'logoDataUrl', 'logoHash', 'fingerprint', 'serialNumber', 'publicKey', 'key', 'token']);

/**
 * Each pattern is linear in the text: a stranger's DNS records end up in the snapshot, so a pattern
 * that backtracks over a long run (an unbounded class before a required `@`, a lookahead over the
 * rest of a run at every word boundary) would hold the event loop for seconds (a review: 56 KB of
 * `p=` in a DMARC record, 13 s). Every unbounded repetition is followed by a character outside its
 * class or is bounded (an address's labels, at most 63 characters, as RFC 1035 allows), and
 * addresses are found from their `@`; test/assistant-linear.test.ts times the worst inputs.
 */
const STEPS: ((text: string) => string)[] = [
  (text) => text.replace(/-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(-----END [A-Z0-9 ]+-----|$)/g, '[certificate omitted]'),
  (text) => text.replace(/data:[a-z+/.-]+;base64,[A-Za-z0-9+/=]*/gi, '[image omitted]'),
  // DKIM public keys (p=…), and any other tag value that is a long base64 run.
  (text) => text.replace(/\bp=(?=[A-Za-z0-9+/]*[0-9+/])[A-Za-z0-9+/]{16,}={0,2}/g, 'p=[key omitted]'),
  (text) => omitAddresses(text),
  (text) => text.replace(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '[id omitted]'),
  // Verification tokens and other random strings: 20+ characters of letters and digits with at least one digit.
  (text) => text.replace(/[A-Za-z0-9_+/=-]{20,}/g, omitToken),
];

/**
 * A run of token characters from its first letter or digit (where a word starts), when that much
 * is 20 characters or more and holds a digit. One pass over the run: a later start in the run is
 * shorter and holds no more digits, so the first start decides.
 */
function omitToken(run: string): string {
  const start = run.search(/[A-Za-z0-9_]/);
  if (start === -1) return run;
  const token = run.slice(start);
  return token.length >= 20 && /\d/.test(token) ? `${run.slice(0, start)}[token omitted]` : run;
}

/** The characters an address's local part may hold, by code. */
const LOCAL_PART = new Set([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.!#$%&'*+/=?^_`{|}~-"].map((char) => char.charCodeAt(0)));
/** An address's domain right after its `@`: labels of at most 63 characters. */
const ADDRESS_DOMAIN = /[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+/y;

/**
 * E-mail addresses (`mailto:` included), found from their `@`: the local part is read backwards, at
 * most 64 characters (RFC 5321) and never into the address before, the domain forwards. Each
 * character is looked at a bounded number of times, where a pattern starting at every character
 * would read up to 64 of them before failing.
 */
function omitAddresses(text: string): string {
  const parts: string[] = [];
  let copied = 0;
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    let start = at;
    while (start > copied && at - start < 64 && LOCAL_PART.has(text.charCodeAt(start - 1))) start -= 1;
    if (start === at) continue;
    ADDRESS_DOMAIN.lastIndex = at + 1;
    if (!ADDRESS_DOMAIN.test(text)) continue;
    if (start - 7 >= copied && text.slice(start - 7, start) === 'mailto:') start -= 7;
    parts.push(text.slice(copied, start), '[address omitted]');
    copied = ADDRESS_DOMAIN.lastIndex;
    at = copied - 1;
  }
  if (parts.length === 0) return text;
  parts.push(text.slice(copied));
  return parts.join('');
}

export function stripSecretText(text: string): string {
  return STEPS.reduce((value, step) => step(value), text);
}

/** A copy of `value` with secret keys dropped and every string passed through stripSecretText. */
export function stripSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return null;
  if (typeof value === 'string') return stripSecretText(value);
  if (Array.isArray(value)) return value.map((item) => stripSecrets(item, depth + 1));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !SECRET_KEYS.has(key))
        .map(([key, item]) => [key, stripSecrets(item, depth + 1)]),
    );
  }
  return value;
}

/** What the assistant may know of a domain: its latest snapshot, secrets stripped. */
export function fullDomainData(domain: string, snapshot: MonitorSnapshot | null): Record<string, unknown> {
  if (!snapshot) return { domain, checked: false };
  return stripSecrets({ domain, ...snapshot }) as Record<string, unknown>;
}

export function assistantContext(input: {
  domain: string;
  snapshot: MonitorSnapshot | null;
  history: ConversationEntry[];
  initialQuestion?: string;
  autoSubmit?: boolean;
}): AssistantContext {
  return {
    domainName: input.domain,
    healthScore: input.snapshot?.healthScore ?? null,
    topIssues: (input.snapshot?.topIssues ?? []).map((issue) => stripSecrets(issue) as typeof issue),
    initialQuestion: stripSecretText(input.initialQuestion ?? 'Why is my logo not showing?'),
    autoSubmit: input.autoSubmit ?? false,
    fullDomainData: fullDomainData(input.domain, input.snapshot),
    history: input.history.map((entry) => ({ ...entry, text: stripSecretText(entry.text) })),
  };
}
