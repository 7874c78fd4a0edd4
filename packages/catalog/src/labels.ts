/**
 * How a certificate is named wherever the buyer must tell one from another: the cart, the success
 * page, the orders, the transactions and the receipts (issue 30: "the success page and the receipt
 * don't say which logo is which"). Pure, for the front ends and the bff alike.
 */

/** "Logo 2 of 3"; empty for a certificate bought alone (one logo). */
export function logoLabel(index: number, count: number): string {
  return count > 1 ? `Logo ${index} of ${count}` : '';
}

/** "acme.example", "acme.example and mail.acme.example", "acme.example and 2 more"; empty before the domains are given. */
export function domainsLabel(domains: readonly string[] | null | undefined): string {
  if (!domains || domains.length === 0) return '';
  const [first, second] = domains;
  if (domains.length === 1) return first ?? '';
  if (domains.length === 2) return `${first} and ${second}`;
  return `${first} and ${domains.length - 1} more`;
}

/**
 * One order in a list of several: "O-000002 · Verified Mark Certificate for acme.example · 3 domains
 * · 2 years · Logo 2 of 3". `description` is the order's own (it carries the logo since issue 30).
 * Without `number` where the number stands beside it already (the transactions' Order column).
 */
export function orderLabel(order: { number?: string; productName: string; description: string; domains?: readonly string[] | null }): string {
  const domains = domainsLabel(order.domains);
  return [order.number, `${order.productName}${domains ? ` for ${domains}` : ''}`, order.description].filter(Boolean).join(' · ');
}
