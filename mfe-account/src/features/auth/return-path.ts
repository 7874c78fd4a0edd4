/** A link to an auth page that carries the place to return to, when there is one. */
export function withCallback(path: string, callbackUrl: string | null, extra: Record<string, string> = {}): string {
  const query = new URLSearchParams(extra);
  if (callbackUrl) query.set('callbackUrl', callbackUrl);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
