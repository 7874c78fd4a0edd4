import createCache, { type EmotionCache } from '@emotion/cache';
import { EMOTION_CACHE_KEY } from '@bimi/ui/brand';

/**
 * An Emotion cache for the site, made the same way in the browser and on the server. Without
 * stylis's vendor prefixer: the browsers we serve need none of the -webkit-box / -ms-flexbox
 * forms it adds, which made up about a third of a server-rendered page's inline CSS.
 */
export function createSiteEmotionCache(): EmotionCache {
  return createCache({ key: EMOTION_CACHE_KEY, stylisPlugins: NO_STYLIS_PLUGINS });
}

// One array for every cache: on the server, Emotion keeps its compiled styles per plugin list (a
// weak map keyed by this array), so a new array per render compiled every style again each time.
const NO_STYLIS_PLUGINS: [] = [];
