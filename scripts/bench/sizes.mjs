// Compressed sizes of a built file: the .gz/.br siblings the build wrote (what the bff serves),
// or, for a file below the compression threshold (no sibling), compressed here with the build's
// own settings (gzip level 9, brotli quality 11).
import { existsSync, readFileSync, statSync } from 'node:fs';
import zlib from 'node:zlib';

const cache = new Map();

/**
 * @param {string} file absolute path of the uncompressed file
 * @returns {{ raw: number, gzip: number, brotli: number, compressedOnDisk: boolean }}
 */
export function fileSizes(file) {
  let sizes = cache.get(file);
  if (sizes) return sizes;
  const raw = statSync(file).size;
  const gzFile = `${file}.gz`;
  const brFile = `${file}.br`;
  let body;
  const content = () => (body ??= readFileSync(file));
  const gzip = existsSync(gzFile) ? statSync(gzFile).size : zlib.gzipSync(content(), { level: 9 }).length;
  const brotli = existsSync(brFile) ? statSync(brFile).size : zlib.brotliCompressSync(content(), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  sizes = { raw, gzip, brotli, compressedOnDisk: existsSync(gzFile) && existsSync(brFile) };
  cache.set(file, sizes);
  return sizes;
}
