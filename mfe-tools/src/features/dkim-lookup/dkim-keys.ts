/** The keys a DKIM answer found, read defensively from `details` (one key, or one per selector). */
export interface DkimKeySummary {
  selector: string;
  keyType?: string | undefined;
  keyBits?: number | undefined;
  revoked: boolean;
}

type Loose = Record<string, unknown>;

function asObject(value: unknown): Loose | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Loose) : undefined;
}

function readKey(value: unknown, fallbackSelector?: string): DkimKeySummary | undefined {
  const node = asObject(value);
  if (!node) return undefined;
  const key = asObject(node['key']) ?? node;
  const selector = typeof node['selector'] === 'string' ? node['selector'] : fallbackSelector;
  if (!selector) return undefined;
  const keyType = [key['keyType'], key['type'], key['k']].find((candidate) => typeof candidate === 'string') as string | undefined;
  const keyBits = [key['keyBits'], key['bits'], key['keySize'], key['size']].find((candidate) => typeof candidate === 'number') as number | undefined;
  return { selector, keyType, keyBits, revoked: key['revoked'] === true };
}

export function dkimKeysFrom(details: Loose | undefined): { keys: DkimKeySummary[]; tried: string[] } {
  if (!details) return { keys: [], tried: [] };
  const list = [details['keys'], details['found'], details['selectors']].find(Array.isArray) as unknown[] | undefined;
  const keys = list ? list.flatMap((entry) => readKey(entry) ?? []) : [readKey(details)].flatMap((key) => (key && (key.keyType || key.keyBits || key.revoked) ? [key] : []));
  const triedValue = details['tried'] ?? details['selectorsTried'];
  const tried = Array.isArray(triedValue) ? triedValue.filter((entry): entry is string => typeof entry === 'string') : [];
  return { keys, tried };
}
