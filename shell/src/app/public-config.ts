import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import { PublicConfig } from '@bimi/contracts/public-config';
import { OWN_NEWSLETTER_PATH } from '@bimi/contracts/site';

const FALLBACK: PublicConfig = { newsletterUrl: OWN_NEWSLETTER_PATH, tagManagerId: null, priceSettings: {} };

/** Run-time settings, inlined in the page by the bff; /api/public-config is the fallback. */
export async function readPublicConfig(): Promise<PublicConfig> {
  try {
    const inline = document.getElementById('public-config')?.textContent;
    const raw: unknown = inline ? JSON.parse(inline) : await fetch(SITE_API_PATHS.publicConfig).then((r) => r.json());
    return PublicConfig.parse(raw);
  } catch (error) {
    console.error('[shell] public configuration unavailable, using defaults', error);
    return FALLBACK;
  }
}
