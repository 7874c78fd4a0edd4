import { SITE_API_PATHS } from './api-paths';

/** The name every page title ends with: `<page title> | BIMI Store`. */
export const SITE_NAME = 'BIMI Store';

/** The bff's own newsletter endpoint, used when no mailing-list provider is configured. */
export const OWN_NEWSLETTER_PATH = SITE_API_PATHS.newsletterSubscribe;
