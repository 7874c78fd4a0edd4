import type { Check } from './types';
import { checkSvgTinyPs } from './svg';

const byId = (checks: Check[], id: string) => checks.find((check) => check.id === id);

const valid = `<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" version="1.2" baseProfile="tiny-ps" viewBox="0 0 512 512">
  <title>Example Brand</title>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#f00"/></linearGradient></defs>
  <rect width="512" height="512" fill="url(#g)"/>
  <use xlink:href="#g"/>
</svg>`;

/** The valid logo with one change, for one failing check each. */
const variant = (from: string, to: string) => valid.replace(from, to);

describe('checkSvgTinyPs', () => {
  it('passes a Tiny PS logo on every check', () => {
    const result = checkSvgTinyPs(valid);
    expect(result.checks.filter((check) => check.status !== 'pass')).toEqual([]);
    expect(result.score).toBe(100);
    expect(result.details).toMatchObject({ title: 'Example Brand', viewBox: [0, 0, 512, 512] });
  });

  it.each([
    ['svg.profile', variant('baseProfile="tiny-ps"', 'baseProfile="tiny"')],
    ['svg.profile', variant(' baseProfile="tiny-ps"', '')],
    ['svg.version', variant('version="1.2"', 'version="1.1"')],
    ['svg.title', variant('<title>Example Brand</title>', '')],
    ['svg.title', variant('<title>Example Brand</title>', '<title>  </title>')],
    ['svg.script', variant('<title>', '<script>alert(1)</script><title>')],
    ['svg.script', variant('<rect ', '<rect onclick="x()" ')],
    ['svg.animation', variant('<rect width="512" height="512" fill="url(#g)"/>', '<rect width="512" height="512"><animate attributeName="x" to="5"/></rect>')],
    ['svg.animation', variant('</defs>', '</defs><set attributeName="fill" to="red"/>')],
    ['svg.image', variant('</defs>', '</defs><image href="data:image/png;base64,AAAA" width="10" height="10"/>')],
    ['svg.external', variant('xlink:href="#g"', 'xlink:href="https://evil.example/x.svg#g"')],
    ['svg.external', variant('fill="url(#g)"', 'fill="url(http://evil.example/p.svg#g)"')],
    ['svg.external', variant('</defs>', '</defs><style>@import url(https://fonts.example/font.css);</style>')],
    ['svg.element.forbidden', variant('</defs>', '</defs><foreignObject width="1" height="1"/>')],
    ['svg.element.forbidden', variant('<use ', '<a href="#g"><use ').replace('</svg>', '</a></svg>')],
    ['svg.root-position', variant('viewBox', 'x="0" y="0" viewBox')],
    ['svg.viewbox', variant('viewBox="0 0 512 512"', 'viewBox="0 0 512 256"')],
    ['svg.viewbox', variant(' viewBox="0 0 512 512"', '')],
    ['svg.viewbox', variant('viewBox="0 0 512 512"', 'viewBox="0 0 big"')],
    ['svg.size', variant('</svg>', `<!-- ${'x'.repeat(33 * 1024)} --></svg>`)],
  ])('fails %s', (id, svg) => {
    const result = checkSvgTinyPs(svg);
    const check = byId(result.checks, id);
    expect(check?.status).toBe('fail');
    expect(check?.fix).toEqual(expect.any(String));
    expect(result.score).toBeLessThan(100);
  });

  it('warns when width and height differ', () => {
    expect(byId(checkSvgTinyPs(variant('viewBox', 'width="100" height="50" viewBox')).checks, 'svg.dimensions')?.status).toBe('warn');
  });

  it.each([
    ['unclosed tag', '<svg xmlns="http://www.w3.org/2000/svg"><title>x</svg>'],
    ['empty text', ''],
    ['not XML', 'this is a PNG, honest'],
    ['unbound prefix', '<svg xmlns="http://www.w3.org/2000/svg"><x:rect/></svg>'],
    ['two roots', '<svg xmlns="http://www.w3.org/2000/svg"/><svg xmlns="http://www.w3.org/2000/svg"/>'],
  ])('malformed XML (%s) is a clear failure, not a throw', (_, svg) => {
    const result = checkSvgTinyPs(svg);
    const check = byId(result.checks, 'svg.xml');
    expect(check?.status).toBe('fail');
    expect(check?.detail).toMatch(/^The file cannot be read as XML: ./);
    expect(result.score).toBe(0);
  });

  it('an XML document that is not SVG fails the root check', () => {
    expect(byId(checkSvgTinyPs('<html><body/></html>').checks, 'svg.root')?.status).toBe('fail');
    expect(byId(checkSvgTinyPs('<svg version="1.2"/>').checks, 'svg.root')?.detail).toContain('without the SVG namespace');
  });

  it('does not parse text far beyond the size limit', () => {
    const result = checkSvgTinyPs(`<svg>${'<g>'.repeat(600_000)}`);
    expect(result.checks.map((check) => check.id)).toEqual(['svg.size']);
  });
});
