/**
 * The way to sales when the store cannot sell something as configured (more than 250 domains on a
 * certificate, a cart above the payment provider's one-charge limit): the contact form on the sales
 * topic, its message written out for the specialist, so the buyer sends it as it is or adds to it.
 */
export function salesContactPath(message: string): string {
  return `/contact?${new URLSearchParams({ topic: 'sales', message }).toString()}`;
}

/** One line of a cart, in the words the sales message uses. */
export interface SalesLine {
  /** "Verified Mark Certificate". */
  name: string;
  /** "250 domains · 3 years · Logo 1 of 10". */
  description: string;
  quantity: number;
}

/**
 * "We would like a quote for this cart (total $985,000,500.00): 99 × Verified Mark Certificate
 * (250 domains · 3 years · Logo 1 of 10); …" Kept under the contact form's 5,000 characters: lines
 * past that are counted, not listed.
 */
export function cartSalesMessage(lines: readonly SalesLine[], total: string, max = 5000): string {
  const head = `We would like a quote for this cart (total ${total}):`;
  let message = head;
  for (const [index, line] of lines.entries()) {
    const next = `\n- ${line.quantity} × ${line.name}${line.description ? ` (${line.description})` : ''}`;
    const rest = `\n- and ${lines.length - index} more line${lines.length - index === 1 ? '' : 's'}`;
    if (message.length + next.length + rest.length > max) return message + rest;
    message += next;
  }
  return message;
}
