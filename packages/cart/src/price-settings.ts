import { PublicConfig } from '@bimi/contracts/public-config';
import type { PriceSettings } from '@bimi/catalog/price-ids';

let cached: PriceSettings | undefined;

/**
 * The price and product identifiers the bff read from its environment at run time and embedded
 * in the page (`<script id="public-config">`), so a remote is never rebuilt per environment.
 * Without them (a remote served alone) items are added without identifiers, and checkout
 * resolves them from configuration (spec §5).
 */
export function readPriceSettings(doc: Pick<Document, 'getElementById'> = document): PriceSettings {
  if (cached) return cached;
  const embedded = doc.getElementById('public-config')?.textContent;
  if (!embedded) return {};
  try {
    cached = PublicConfig.parse(JSON.parse(embedded)).priceSettings;
  } catch {
    console.warn('[cart] the embedded public config is not valid; prices are added without identifiers');
    cached = {};
  }
  return cached;
}
