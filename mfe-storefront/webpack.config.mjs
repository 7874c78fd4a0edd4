// @ts-check
import { tsImport } from 'tsx/esm/api';
import { createAppConfig, createServerAppConfig } from '@bimi/webpack-config';

/**
 * Prints the Mark Certificate Validation Guide (src/features/validation-guide) to a PDF in the
 * build output, so the published guide always matches the text in the source.
 */
class EmitValidationGuidePlugin {
  /** @param {import('webpack').Compiler} compiler */
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('EmitValidationGuidePlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise({ name: 'EmitValidationGuidePlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL }, async () => {
        const guide = new URL('./src/features/validation-guide/', import.meta.url);
        for (const file of ['guide.ts', 'render-guide-pdf.ts', 'build-guide.ts']) compilation.fileDependencies.add(new URL(file, guide).pathname);
        /** @type {typeof import('./src/features/validation-guide/build-guide')} */
        const { buildValidationGuidePdf, VALIDATION_GUIDE_ASSET } = await tsImport(new URL('build-guide.ts', guide).href, import.meta.url);
        compilation.emitAsset(VALIDATION_GUIDE_ASSET, new sources.RawSource(await buildValidationGuidePdf()));
      });
    });
  }
}

const app = {
  name: 'storefront',
  dir: import.meta.dirname,
  // The remote's public API: see packages/contracts/src/remote-modules.ts.
  exposes: { './routes': './src/exposed/routes.tsx' },
};

const config = createAppConfig(app);
config.plugins?.push(new EmitValidationGuidePlugin());

export default config;

/** The server build the bff renders public pages with (issue 14). */
export const server = createServerAppConfig(app);
