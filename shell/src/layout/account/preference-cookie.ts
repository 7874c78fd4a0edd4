/**
 * A cookie that keeps how the visitor left the account area, so the server draws the next page so
 * (the sidebar's choice, the screen's size class): a year, the whole site, and Secure over https as
 * the consent cookie is.
 */
export function writePreferenceCookie(name: string, value: string): void {
  document.cookie = `${name}=${value}; path=/; max-age=31536000; samesite=lax${location.protocol === 'https:' ? '; secure' : ''}`;
}
