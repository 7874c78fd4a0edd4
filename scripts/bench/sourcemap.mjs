// What a built chunk is made of: the generated characters of a .js file attributed to the
// sources its .js.map names (the way source-map-explorer does it), grouped by origin:
// the app's own code, a workspace package, an npm package, or webpack's runtime.
import { existsSync, readFileSync } from 'node:fs';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i++) DIGIT[BASE64.charCodeAt(i)] = i;

/**
 * Decodes one line of a source map's `mappings`: [generatedColumn, sourceIndex | -1] per segment.
 * Source indexes are relative across the whole file, so the running value is passed in and out.
 */
function decodeLine(text, state) {
  const segments = [];
  let column = 0;
  let i = 0;
  while (i < text.length) {
    const fields = [];
    while (i < text.length && text[i] !== ',') {
      let value = 0;
      let shift = 0;
      let digit;
      do {
        digit = DIGIT[text.charCodeAt(i++)];
        if (digit === undefined || digit < 0) throw new Error('invalid source map mappings');
        value += (digit & 31) << shift;
        shift += 5;
      } while (digit & 32);
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
    }
    i++; // the comma
    column += fields[0] ?? 0;
    if (fields.length >= 4) {
      state.source += fields[1];
      segments.push([column, state.source]);
    } else segments.push([column, -1]);
  }
  return segments;
}

/** `…/node_modules/.pnpm/x@1/node_modules/@scope/pkg/file.js` → `@scope/pkg` */
export function packageOfSource(source) {
  const at = source.lastIndexOf('node_modules/');
  if (at < 0) return null;
  const rest = source.slice(at + 'node_modules/'.length).split('/');
  if (!rest[0]) return null;
  return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
}

/**
 * Where a source comes from.
 * @returns {{ kind: 'own' | 'workspace' | 'npm' | 'webpack', name: string }}
 */
export function originOfSource(source) {
  const pkg = packageOfSource(source);
  if (pkg?.startsWith('@module-federation/')) return { kind: 'npm', name: '@module-federation/* (federation runtime)' };
  if (pkg) return { kind: 'npm', name: pkg };
  const workspace = /(?:^|\/)\.\.\/packages\/([^/]+)\//.exec(source);
  if (workspace) return { kind: 'workspace', name: `@bimi/${workspace[1]}` };
  if (/^webpack:\/\/[^/]+\/\.\//.test(source)) return { kind: 'own', name: 'own code' };
  return { kind: 'webpack', name: 'webpack runtime' };
}

const cache = new Map();

/**
 * Generated characters per source of a built JS file, or null without a source map.
 * @param {string} jsFile
 * @returns {Map<string, number> | null} source → characters (unmapped code under '(unmapped)')
 */
export function charsBySource(jsFile) {
  if (cache.has(jsFile)) return cache.get(jsFile);
  const mapFile = `${jsFile}.map`;
  let result = null;
  if (existsSync(mapFile)) {
    try {
      const map = JSON.parse(readFileSync(mapFile, 'utf8'));
      const lines = readFileSync(jsFile, 'utf8').split('\n');
      const mappingLines = String(map.mappings ?? '').split(';');
      const sources = map.sources ?? [];
      result = new Map();
      const add = (key, n) => n > 0 && result.set(key, (result.get(key) ?? 0) + n);
      const state = { source: 0 };
      for (let line = 0; line < lines.length; line++) {
        const length = lines[line].length + 1; // the newline belongs to the line's last segment
        const segments = mappingLines[line] ? decodeLine(mappingLines[line], state) : [];
        if (!segments.length) {
          add('(unmapped)', length);
          continue;
        }
        add('(unmapped)', segments[0][0]);
        for (let s = 0; s < segments.length; s++) {
          const [start, source] = segments[s];
          const end = s + 1 < segments.length ? segments[s + 1][0] : length;
          add(source >= 0 ? (sources[source] ?? '(unmapped)') : '(unmapped)', end - start);
        }
      }
    } catch {
      result = null;
    }
  }
  cache.set(jsFile, result);
  return result;
}

/**
 * A chunk's make-up by origin: [{ kind, name, share }] largest first, shares summing to 1.
 * @param {string} jsFile
 */
export function compositionOf(jsFile) {
  const bySource = charsBySource(jsFile);
  if (!bySource) return null;
  const byOrigin = new Map();
  let total = 0;
  for (const [source, chars] of bySource) {
    const origin = source === '(unmapped)' ? { kind: 'webpack', name: 'unmapped (chunk wrappers)' } : originOfSource(source);
    const key = `${origin.kind}\0${origin.name}`;
    byOrigin.set(key, (byOrigin.get(key) ?? 0) + chars);
    total += chars;
  }
  return [...byOrigin]
    .map(([key, chars]) => {
      const [kind, name] = key.split('\0');
      return { kind, name, share: total ? chars / total : 0 };
    })
    .sort((a, b) => b.share - a.share);
}

/** A source's identity across builds and apps: its path inside node_modules, or inside the workspace. */
export function sourceKey(source) {
  const at = source.lastIndexOf('node_modules/');
  if (at >= 0) return source.slice(at + 'node_modules/'.length);
  const own = /^webpack:\/\/([^/]*)\/\.\/(.*)$/.exec(source);
  if (own) return `${own[1]}/${own[2]}`;
  return source.replace(/^webpack:\/\/[^/]*\//, '').replace(/^(\.\.\/)+/, '');
}

/**
 * Modules that more than one of the given chunks carries (the same source compiled into
 * several chunks), with the characters the extra copies cost.
 * @param {string[]} jsFiles
 */
export function duplicatedModules(jsFiles) {
  const seen = new Map(); // key → { copies, chars }
  for (const file of jsFiles) {
    const bySource = charsBySource(file);
    if (!bySource) continue;
    const inThisFile = new Map();
    for (const [source, chars] of bySource) {
      if (source === '(unmapped)') continue;
      const key = sourceKey(source);
      inThisFile.set(key, (inThisFile.get(key) ?? 0) + chars);
    }
    for (const [key, chars] of inThisFile) {
      const entry = seen.get(key) ?? { copies: 0, chars: [] };
      entry.copies += 1;
      entry.chars.push(chars);
      seen.set(key, entry);
    }
  }
  const duplicates = [...seen]
    .filter(([, entry]) => entry.copies > 1)
    .map(([key, entry]) => {
      const sorted = [...entry.chars].sort((a, b) => b - a);
      return { module: key, copies: entry.copies, extraChars: sorted.slice(1).reduce((a, b) => a + b, 0) };
    })
    .sort((a, b) => b.extraChars - a.extraChars);
  const byPackage = new Map();
  for (const d of duplicates) {
    const pkg = d.module.startsWith('webpack/') ? 'webpack runtime' : (packageOfSource(`node_modules/${d.module}`) ?? d.module.split('/')[0]);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + d.extraChars);
  }
  return {
    modules: duplicates.length,
    extraChars: duplicates.reduce((a, d) => a + d.extraChars, 0),
    byPackage: [...byPackage].map(([name, chars]) => ({ name, chars })).sort((a, b) => b.chars - a.chars),
    top: duplicates.slice(0, 15),
  };
}
