import { MAX_PEM_BYTES } from '@bimi/contracts/tools';

/**
 * Splitting a PEM file into its blocks in one pass, before any certificate is parsed.
 * @postalsys/vmc's splitter (a lazy regular expression over the whole text) takes time growing with
 * the square of the number of BEGIN lines: 1,300 of them held the server for 5 seconds.
 */

/** A mark-certificate file holds the certificate, its one to three intermediates, perhaps the root. */
export const MAX_PEM_BLOCKS = 8;
export { MAX_PEM_BYTES };

const BEGIN = '-----BEGIN ';
const DASHES = '-----';
/** Longest label read after BEGIN ("CERTIFICATE", "TRUSTED CERTIFICATE", "PRIVATE KEY"…). */
const MAX_LABEL = 40;

export type PemBundle =
  | { ok: true; certificates: string[] }
  | { ok: false; problem: 'too-large'; characters: number }
  | { ok: false; problem: 'too-many-blocks'; blocks: number }
  | { ok: false; problem: 'no-certificate' }
  | { ok: false; problem: 'unterminated'; label: string }
  | { ok: false; problem: 'not-a-certificate'; label: string };

function countBlocks(text: string): number {
  let count = 0;
  for (let at = text.indexOf(BEGIN); at >= 0; at = text.indexOf(BEGIN, at + BEGIN.length)) count += 1;
  return count;
}

/**
 * The certificates of a PEM file, each as its own PEM text, or what makes the file unreadable.
 * Every search starts where the previous one ended, so the time is linear in the length; the number
 * of blocks is counted (also linearly) and refused past MAX_PEM_BLOCKS before any is read.
 */
export function splitPemBundle(text: string): PemBundle {
  if (text.length > MAX_PEM_BYTES) return { ok: false, problem: 'too-large', characters: text.length };
  const blocks = countBlocks(text);
  if (blocks > MAX_PEM_BLOCKS) return { ok: false, problem: 'too-many-blocks', blocks };
  const certificates: string[] = [];
  let position = 0;
  for (let begin = text.indexOf(BEGIN); begin >= 0; begin = text.indexOf(BEGIN, position)) {
    const labelStart = begin + BEGIN.length;
    const labelEnd = text.indexOf(DASHES, labelStart);
    const label = labelEnd < 0 ? '' : text.slice(labelStart, labelEnd);
    if (labelEnd < 0 || label.length > MAX_LABEL || /[\r\n]/.test(label))
      return { ok: false, problem: 'unterminated', label: text.slice(labelStart, labelStart + MAX_LABEL).split(/[\r\n-]/)[0] ?? '' };
    const endLine = `-----END ${label}-----`;
    const end = text.indexOf(endLine, labelEnd + DASHES.length);
    if (end < 0) return { ok: false, problem: 'unterminated', label };
    if (label !== 'CERTIFICATE') return { ok: false, problem: 'not-a-certificate', label };
    position = end + endLine.length;
    certificates.push(`${text.slice(begin, position)}\n`);
  }
  return certificates.length > 0 ? { ok: true, certificates } : { ok: false, problem: 'no-certificate' };
}
