import { cpSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const WORKSPACE = resolve(__dirname, '..', '..');

/** The version the tools deploy flow publishes, staged by stage-deploy.setup.ts before that flow starts. */
export const DEPLOYED_VERSION = '9.9.9-e2e';

/** The run folder of the deploy flows' server (playwright.config.ts, project independent-deploy). */
export const deployRunDir = () => join(process.env.E2E_RUN_DIR as string, 'deploys');

/** Where the staged builds wait to be published. */
export const stagedToolsDir = () => join(deployRunDir(), 'staged-tools');
export const stagedStorefrontDir = () => join(deployRunDir(), 'staged-storefront');

/**
 * Catalog N+1, for the versioned-sharing flow: the workspace's @bimi/catalog as its next minor
 * release, in which the Premium DMARC plan keeps two years of reports. The storefront is built
 * against it (BIMI_PACKAGE_OVERRIDES) and deployed into a site whose shell was built with catalog N.
 */
const catalogVersion = (JSON.parse(readFileSync(join(WORKSPACE, 'packages', 'catalog', 'package.json'), 'utf8')) as { version: string }).version;
const [major = 0, minor = 0] = catalogVersion.split('.').map(Number);

export const CATALOG_NEXT = {
  /** The next minor release of the workspace's catalog. */
  version: `${major}.${minor + 1}.0`,
  storefrontVersion: `${major}.${minor + 1}.0-e2e`,
  premiumHistory: { before: '1 year of report history', after: '2 years of report history' },
};

/** Writes catalog N+1 into `dir`: the package's sources and manifest, with its dependencies linked. */
export function writeCatalogNext(dir: string): void {
  const source = join(WORKSPACE, 'packages', 'catalog');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(join(source, 'src'), join(dir, 'src'), { recursive: true });
  symlinkSync(realpathSync(join(source, 'node_modules')), join(dir, 'node_modules'));
  const manifest = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...manifest, version: CATALOG_NEXT.version }, null, 2));
  const products = join(dir, 'src', 'products.ts');
  const text = readFileSync(products, 'utf8');
  const changed = text.replace("'dmarc-premium': { domains: 4, reportHistory: '1 year',", "'dmarc-premium': { domains: 4, reportHistory: '2 years',");
  if (changed === text) throw new Error(`catalog N+1: the Premium plan's report history is no longer where ${products} had it; update writeCatalogNext`);
  writeFileSync(products, changed);
}
