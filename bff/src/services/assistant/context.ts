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

const PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(-----END [A-Z0-9 ]+-----|$)/g, '[certificate omitted]'],
  [/data:[a-z+/.-]+;base64,[A-Za-z0-9+/=]*/gi, '[image omitted]'],
  // DKIM public keys (p=…), and any other tag value that is a long base64 run.
  [/\bp=(?=[A-Za-z0-9+/]*[0-9+/])[A-Za-z0-9+/]{16,}={0,2}/g, 'p=[key omitted]'],
  [/(?:mailto:)?[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+/g, '[address omitted]'],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '[id omitted]'],
  // Verification tokens and other random strings: 20+ characters of letters and digits with at least one digit.
  [/\b(?=[A-Za-z0-9_+/=-]*\d)[A-Za-z0-9_+/=-]{20,}/g, '[token omitted]'],
];

export function stripSecretText(text: string): string {
  return PATTERNS.reduce((value, [pattern, replacement]) => value.replace(pattern, replacement), text);
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
    initialQuestion: input.initialQuestion ?? 'Why is my logo not showing?',
    autoSubmit: input.autoSubmit ?? false,
    fullDomainData: fullDomainData(input.domain, input.snapshot),
    history: input.history.map((entry) => ({ ...entry, text: stripSecretText(entry.text) })),
  };
}
