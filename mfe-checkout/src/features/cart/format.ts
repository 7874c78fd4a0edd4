const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Amounts are integer cents everywhere; only display turns them into dollars. */
export function formatUsd(cents: number): string {
  return usd.format(cents / 100);
}
