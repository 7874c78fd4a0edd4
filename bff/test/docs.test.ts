import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestStore, type TestStore } from './fixtures';

const GUIDE = '/docs/Mark-Certificate-Validation-Guide.pdf';

describe('GET /docs/*', () => {
  let store: TestStore;
  beforeEach(async () => {
    store = await startTestStore();
  });
  afterEach(() => store.cleanUp());

  it('serves the storefront build’s PDF with its content type, revalidated on every use', async () => {
    const bytes = Buffer.from('%PDF-1.3\n% a small stand-in: the storefront’s own tests check the real guide\n%%EOF\n');
    mkdirSync(join(store.rootDir, 'mfe-storefront', 'dist', 'docs'), { recursive: true });
    writeFileSync(join(store.rootDir, 'mfe-storefront', 'dist', 'docs', 'Mark-Certificate-Validation-Guide.pdf'), bytes);

    const response = await store.app.inject({ url: GUIDE });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.rawPayload.equals(bytes)).toBe(true);
  });

  it('answers 404 JSON, not the shell page, while the guide is not built or for another name', async () => {
    for (const url of [GUIDE, '/docs/other.pdf', '/docs/../package.json']) {
      const response = await store.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toMatch(/application\/json/);
    }
  });
});
