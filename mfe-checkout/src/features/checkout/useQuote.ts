import { useEffect, useState } from 'react';
import type { CartItem } from '@bimi/catalog/cart-items';
import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { CartQuote } from '@bimi/contracts/cart-quote';
import { callApi, failureMessage } from '@bimi/session/api';
import { quoteLineOf } from './lines';

export type QuoteState = { status: 'loading' } | { status: 'ready'; quote: CartQuote } | { status: 'failed'; message: string };

/**
 * The bff's price for the cart (POST /api/cart/quote): the only amounts the checkout shows.
 * Asked again whenever the lines or their quantities change; an older answer arriving late is
 * dropped so the page never shows the price of a cart that no longer exists.
 */
export function useQuote(items: readonly CartItem[]): QuoteState & { retry: () => void } {
  const [state, setState] = useState<QuoteState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const key = JSON.stringify(items.map(quoteLineOf));
  useEffect(() => {
    let current = true;
    const lines = JSON.parse(key) as ReturnType<typeof quoteLineOf>[];
    if (lines.length === 0) {
      setState({ status: 'ready', quote: { currency: 'usd', items: [], total: 0, payable: true } });
      return;
    }
    setState({ status: 'loading' });
    callApi(SITE_API_PATHS.cartQuote, { method: 'POST', body: { items: lines }, answer: CartQuote }).then(
      (quote) => current && setState({ status: 'ready', quote }),
      (error: unknown) => current && setState({ status: 'failed', message: failureMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}
