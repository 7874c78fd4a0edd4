import { SITE_API_PATHS } from './api-paths';

/** The name every page title ends with: `<page title> | BIMI Store`. */
export const SITE_NAME = 'BIMI Store';

/** The bff's own newsletter endpoint, used when no mailing-list provider is configured. */
export const OWN_NEWSLETTER_PATH = SITE_API_PATHS.newsletterSubscribe;

/**
 * The id of every page's <main> (the skip link's target). A server-rendered page is not painted
 * before it is parsed this far (the bff's `<link rel="expect" blocking="render">`), so the first
 * paint never shows half a header whose buttons then move (a layout shift).
 */
export const MAIN_CONTENT_ID = 'main';
