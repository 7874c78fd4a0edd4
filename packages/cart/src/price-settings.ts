import { PublicConfig } from '@bimi/contracts/public-config';
import type { PriceSettings } from '@bimi/catalog/price-ids';

let current: PriceSettings | undefined;

/**
 * The price and product identifiers the bff read from its environment at run time (public
 * config), so a remote is never rebuilt per environment. The shell hands them over at start
 * from the config it already read; this module is a shared singleton, so every remote sees them.
 */
export function setPriceSettings(settings: PriceSettings): void {
  current = settings;
}

/**
 * The identifiers to put on new cart items. A remote running without the shell reads them from
 * the page the bff served (`<script id="public-config">`); without either, items are added without
 * identifiers and checkout resolves them from configuration (spec §5).
 */
export function readPriceSettings(doc: Pick<Document, 'getElementById'> = document): PriceSettings {
  if (current) return current;
  const embedded = doc.getElementById('public-config')?.textContent;
  if (!embedded) return {};
  try {
    current = PublicConfig.parse(JSON.parse(embedded)).priceSettings;
  } catch {
    console.warn('[cart] the embedded public config is not valid; prices are added without identifiers');
    current = {};
  }
  return current;
}
