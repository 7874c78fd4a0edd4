/** A path whose last segment has an extension asks for a file (`/favicon.ico`), not a page. */
export function looksLikeFilePath(urlPath: string): boolean {
  const last =
    urlPath
      .split('/')
      .filter((segment) => segment !== '')
      .at(-1) ?? '';
  return /\.[A-Za-z0-9]{1,8}$/.test(last);
}
