// @ts-check
import { createAppConfig } from '@bimi/webpack-config';

export default createAppConfig({
  name: 'shell',
  dir: import.meta.dirname,
  html: { title: 'BIMI mark certificates and DMARC enforcement' },
});
