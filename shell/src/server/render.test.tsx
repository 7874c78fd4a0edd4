import { PublicConfig } from '@bimi/contracts/public-config';
import { renderPage } from './render';

const config = PublicConfig.parse({ newsletterUrl: '/api/newsletter/subscribe', tagManagerId: null, priceSettings: {} });

describe("the shell's server render", () => {
  it("gives the page's styles apart from its markup: every class the markup uses is in a sheet, globals first, no <style> in the markup", async () => {
    const { html, styles, errors } = await renderPage({
      url: '/no-such-page',
      remotes: [],
      config,
      consent: null,
      loadRemoteModule: () => Promise.reject(new Error('no remote in this test')),
      signal: AbortSignal.timeout(10_000),
    });
    expect(errors).toEqual([]);
    expect(html).toContain('Page not found');
    expect(html).not.toContain('<style');

    // Emotion's names in the class attributes (with a label in a development build: `bimi-1x2y-MuiButton-root`);
    // `bimi-0`, the name of no styles at all, needs none.
    const classes = [...html.matchAll(/class="([^"]*)"/g)].flatMap((match) => (match[1] ?? '').split(' '));
    const used = new Set(classes.filter((name) => name.startsWith('bimi-') && name !== 'bimi-0').map((name) => name.slice('bimi-'.length)));
    const sheet = styles.find((chunk) => chunk.key === 'bimi');
    expect(used.size).toBeGreaterThan(10);
    expect([...used].filter((id) => !sheet?.ids.includes(id))).toEqual([]);
    for (const id of sheet?.ids ?? []) expect(sheet?.css).toContain(`.bimi-${id}`);
    // Global sheets (keyframes among them) come before the elements' classes.
    const order = styles.map((chunk) => chunk.key);
    expect(order.at(-1)).toBe('bimi');
    expect(order.slice(0, -1).every((key) => key === 'bimi-global')).toBe(true);
  });
});
