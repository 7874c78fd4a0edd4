import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

/** The encoding to answer with for an Accept-Encoding header: brotli before gzip, honouring q=0. */
export function chooseContentEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...parameters] = part.split(';').map((piece) => piece.trim());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: ContentEncoding) => weights.get(name) ?? weights.get('*') ?? 0;
  const best = (['br', 'gzip'] as const).filter((name) => weightOf(name) > 0).sort((a, b) => weightOf(b) - weightOf(a))[0];
  return best;
}

export function compress(body: string, encoding: ContentEncoding): Buffer {
  // Pages are a few kilobytes and built per request, so a middle brotli quality keeps this cheap.
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: Buffer.byteLength(body) } })
    : gzipSync(body, { level: 6 });
}
