import type { DkimDetails } from '@bimi/contracts/tools';

/** The keys a DKIM answer found, from its `details`: one entry per selector with a record, and the selectors tried. */
export interface DkimKeySummary {
  selector: string;
  /** "RSA · 2048-bit", "revoked (empty p=)", or why the key cannot be read. */
  summary: string;
  usable: boolean;
}

export function dkimKeysFrom({ selectors, tried }: DkimDetails): { keys: DkimKeySummary[]; tried: string[] } {
  const keys = selectors.flatMap((result): DkimKeySummary[] => {
    if (result.status !== 'found' || !result.record) return [];
    const { key, publicKey, keyType } = result.record;
    if (publicKey === '') return [{ selector: result.selector, summary: 'Revoked (empty p=)', usable: false }];
    if (key?.ok) return [{ selector: result.selector, summary: `${key.type.toUpperCase()} · ${key.bits}-bit`, usable: true }];
    return [{ selector: result.selector, summary: key && !key.ok ? key.error : `${keyType.toUpperCase()} key that could not be read`, usable: false }];
  });
  return { keys, tried };
}
