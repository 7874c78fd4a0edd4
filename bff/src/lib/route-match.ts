/**
 * Whether a URL path is one of a route's paths, the way react-router matches it: whole segments,
 * `:param` for exactly one segment, a final `*` for the rest (or nothing), a trailing slash ignored.
 * Segments compare case-insensitively because react-router does by default, and the status the
 * bff sends must agree with the page the shell then renders.
 */
export function matchesRoutePath(routePath: string, urlPath: string): boolean {
  const pattern = segmentsOf(routePath);
  const actual = segmentsOf(urlPath).map(decodeSegment);
  if (actual.includes(null)) return false;

  for (const [index, part] of pattern.entries()) {
    if (part === '*' && index === pattern.length - 1) return true;
    const segment = actual[index];
    if (segment === undefined || segment === null) return false;
    if (part.startsWith(':')) continue;
    if (part.toLowerCase() !== segment.toLowerCase()) return false;
  }
  return actual.length === pattern.length;
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((segment) => segment !== '');
}

function decodeSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** A path whose last segment has an extension asks for a file (`/favicon.ico`), not a page. */
export function looksLikeFilePath(urlPath: string): boolean {
  const last = segmentsOf(urlPath).at(-1) ?? '';
  return /\.[A-Za-z0-9]{1,8}$/.test(last);
}
