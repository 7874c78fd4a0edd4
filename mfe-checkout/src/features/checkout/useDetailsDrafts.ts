import { useEffect, useState } from 'react';
import type { DetailsDraft } from '@bimi/ui/certificate-details';

/**
 * The certificate details typed at checkout, per cart line, kept in this browser beside the cart
 * so a reload or the trip to verify an email loses nothing. Cleared with the cart once paid.
 */
export const DETAILS_STORAGE_KEY = 'bimi.checkout.details';

export interface LineDetails {
  draft: DetailsDraft;
  /** The buyer pays now and finishes these details later from the order. */
  later: boolean;
}

function read(): Record<string, LineDetails> {
  try {
    const raw = window.localStorage.getItem(DETAILS_STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : {};
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, LineDetails>) : {};
  } catch {
    return {};
  }
}

export function clearDetailsDrafts(): void {
  try {
    window.localStorage.removeItem(DETAILS_STORAGE_KEY);
  } catch {
    // nothing kept
  }
}

export function useDetailsDrafts(lineIds: readonly string[]) {
  const [drafts, setDrafts] = useState<Record<string, LineDetails>>(read);
  const live = lineIds.join(',');
  useEffect(() => {
    // Only lines still in the cart are kept.
    const kept = Object.fromEntries(Object.entries(drafts).filter(([id]) => lineIds.includes(id)));
    try {
      window.localStorage.setItem(DETAILS_STORAGE_KEY, JSON.stringify(kept));
    } catch {
      // Storage full or refused: the drafts last for this page only.
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `live` stands for lineIds: a new array with the same lines is no change
  }, [drafts, live]);
  return { drafts, setDraft: (id: string, value: LineDetails) => setDrafts((all) => ({ ...all, [id]: value })) };
}
