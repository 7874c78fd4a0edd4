/**
 * Long-form copy (guides, articles, legal pages) as plain data, so one text can be shown as a
 * page and printed into the validation-guide PDF at build time, and so pages share one look.
 */
export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'list'; items: readonly string[] }
  | { kind: 'steps'; items: readonly string[] }
  /** A DNS record or file excerpt, shown monospaced and never wrapped mid-token. */
  | { kind: 'code'; text: string }
  | { kind: 'links'; items: readonly { label: string; to: string }[] };

export interface Section {
  heading: string;
  blocks: readonly Block[];
  subsections?: readonly Section[];
}

export interface LongDocument {
  title: string;
  lead: string;
  sections: readonly Section[];
}

export const p = (text: string): Block => ({ kind: 'p', text });
export const list = (...items: string[]): Block => ({ kind: 'list', items });
export const steps = (...items: string[]): Block => ({ kind: 'steps', items });
export const code = (text: string): Block => ({ kind: 'code', text });
export const links = (...items: { label: string; to: string }[]): Block => ({ kind: 'links', items });
