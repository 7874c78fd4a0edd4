import { SITE_NAME } from '@bimi/contracts/site';
import { VALIDATION_GUIDE, VALIDATION_GUIDE_PATH, VALIDATION_GUIDE_REVISED } from './guide';
import { renderDocumentPdf } from './render-guide-pdf';

/** Where the PDF goes in the storefront's build output; the bff serves dist/docs/ at /docs/. */
export const VALIDATION_GUIDE_ASSET = VALIDATION_GUIDE_PATH.replace(/^\//, '');

/** Run by the storefront's webpack build (webpack.config.mjs), never in the browser. */
export function buildValidationGuidePdf(): Promise<Buffer> {
  return renderDocumentPdf(VALIDATION_GUIDE, { publisher: SITE_NAME, date: new Date(`${VALIDATION_GUIDE_REVISED}T00:00:00Z`) });
}
