import type { Check } from './types';
import { DOMParser, type Element } from '@xmldom/xmldom';
import { fail, pass, scoreChecks, warn } from './checks';
import { asText } from './input';
import { listWords } from './tag-list';

/**
 * The SVG Tiny Portable/Secure profile BIMI logos must follow
 * (draft-svg-tiny-ps-abrotman): SVG 1.2 Tiny with baseProfile="tiny-ps", a <title>, no scripts,
 * animation, interactivity or external references, a square viewBox, at most 32 KB.
 */

export const SVG_MAX_BYTES = 32 * 1024;
/** Past this the text is not parsed at all: it fails the size check anyway. */
const PARSE_LIMIT = 1024 * 1024;
const SVG_NAMESPACE = 'http://www.w3.org/2000/svg';
const ANIMATION_ELEMENTS = new Set(['animate', 'animatemotion', 'animatecolor', 'animatetransform', 'set', 'discard']);
/** Elements that embed other content or interactivity, which Tiny PS leaves out. */
const FORBIDDEN_ELEMENTS = new Set(['foreignobject', 'video', 'audio', 'iframe', 'canvas', 'handler', 'listener', 'prefetch', 'a']);

export interface SvgDetails {
  bytes: number;
  title?: string;
  viewBox?: [number, number, number, number];
  width?: string;
  height?: string;
}

export interface SvgCheck {
  checks: Check[];
  /** `scoreChecks` of the checks, 0 when the text is not a readable SVG. */
  score: number;
  details: SvgDetails;
}

function elementsOf(root: Element): Element[] {
  const all: Element[] = [root];
  const list = root.getElementsByTagName('*');
  for (let index = 0; index < list.length; index += 1) {
    const element = list.item(index);
    if (element) all.push(element);
  }
  return all;
}

/** Checks a logo's SVG text against the SVG Tiny PS profile. Never throws; malformed XML is a failed check. */
export function checkSvgTinyPs(svgText: string): SvgCheck {
  const text = asText(svgText);
  const bytes = new TextEncoder().encode(text).length;
  const details: SvgDetails = { bytes };
  const checks: Check[] = [
    bytes > SVG_MAX_BYTES
      ? fail(
          'svg.size',
          'File too large',
          `The logo is ${Math.ceil(bytes / 1024)} KB; BIMI logos may be at most 32 KB.`,
          'Simplify the paths (e.g. with an SVG optimizer) and remove metadata until the file is under 32 KB.',
        )
      : pass('svg.size', 'File size', `${bytes} bytes (at most 32 KB).`),
  ];
  if (bytes > PARSE_LIMIT) return { checks, score: 0, details };

  const errors: string[] = [];
  let root: Element | null = null;
  try {
    // Parsed as plain XML: xmldom would otherwise put a root <svg> without xmlns into the SVG namespace.
    const parser = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') errors.push(message);
      },
    });
    root = parser.parseFromString(text, 'application/xml').documentElement;
  } catch (error) {
    if (errors.length === 0) errors.push(error instanceof Error ? error.message : String(error));
  }
  if (errors.length > 0 || !root) {
    const reason = (errors[0] ?? 'the document is empty').split('\n')[0]?.replace(/^\[xmldom [a-z]+\]\s*/i, '');
    checks.push(
      fail('svg.xml', 'Not well-formed XML', `The file cannot be read as XML: ${reason}.`, 'Export the logo again from your design tool as SVG, or fix the markup at the place named.'),
    );
    return { checks, score: 0, details };
  }
  if (root.localName !== 'svg' || root.namespaceURI !== SVG_NAMESPACE) {
    checks.push(
      fail(
        'svg.root',
        'Not an SVG image',
        `The root element is <${root.tagName}>${root.localName === 'svg' ? ' without the SVG namespace' : ''}; it must be <svg xmlns="${SVG_NAMESPACE}">.`,
        `Make the root element <svg xmlns="${SVG_NAMESPACE}" version="1.2" baseProfile="tiny-ps">.`,
      ),
    );
    return { checks, score: 0, details };
  }

  const baseProfile = root.getAttribute('baseProfile');
  checks.push(
    baseProfile === 'tiny-ps'
      ? pass('svg.profile', 'Tiny PS profile', 'baseProfile="tiny-ps".')
      : fail(
          'svg.profile',
          'Not the Tiny PS profile',
          `baseProfile is ${baseProfile ? `"${baseProfile}"` : 'missing'}; BIMI needs baseProfile="tiny-ps".`,
          'Add baseProfile="tiny-ps" to the <svg> element (and make sure the content follows the profile).',
        ),
  );
  const version = root.getAttribute('version');
  checks.push(
    version === '1.2'
      ? pass('svg.version', 'SVG version 1.2', 'version="1.2".')
      : fail('svg.version', 'Wrong SVG version', `version is ${version ? `"${version}"` : 'missing'}; Tiny PS is SVG 1.2.`, 'Set version="1.2" on the <svg> element.'),
  );

  const elements = elementsOf(root);
  const title = elements.find((element) => element.localName === 'title' && element.parentNode === root);
  details.title = title?.textContent?.trim() || undefined;
  checks.push(
    details.title
      ? pass('svg.title', 'Has a title', `"${details.title}".`)
      : fail('svg.title', 'No title', 'Tiny PS requires a <title> as a direct child of <svg>, naming the brand.', 'Add <title>Your brand name</title> right after the opening <svg> tag.'),
  );

  const names = (filter: (element: Element) => boolean) => [...new Set(elements.filter(filter).map((element) => `<${nameOf(element)}>`))];
  const scripts = names((element) => nameOf(element) === 'script');
  const handlers = [
    ...new Set(
      elements.flatMap((element) =>
        attributesOf(element)
          .filter((attribute) => /^on/i.test(attribute.localName ?? attribute.name))
          .map((attribute) => attribute.name),
      ),
    ),
  ];
  checks.push(
    scripts.length + handlers.length === 0
      ? pass('svg.script', 'No scripts', 'No <script> elements or event handlers.')
      : fail(
          'svg.script',
          'Contains scripts',
          `${listWords([...scripts, ...handlers.map((name) => `${name}=`)])}: scripts are not allowed.`,
          'Remove every <script> element and on… attribute.',
        ),
  );
  const animations = names((element) => ANIMATION_ELEMENTS.has(nameOf(element)));
  checks.push(
    animations.length === 0
      ? pass('svg.animation', 'No animation', 'No animation elements.')
      : fail('svg.animation', 'Contains animation', `${listWords(animations)}: animation is not allowed.`, 'Remove the animation elements; the logo must be static.'),
  );
  const forbidden = names((element) => FORBIDDEN_ELEMENTS.has(nameOf(element)));
  if (forbidden.length > 0) {
    checks.push(
      fail(
        'svg.element.forbidden',
        'Elements outside the profile',
        `${listWords(forbidden)} ${forbidden.length === 1 ? 'is' : 'are'} not part of SVG Tiny PS (no links, embedded content or interactivity).`,
        'Remove these elements.',
      ),
    );
  }
  const images = names((element) => nameOf(element) === 'image');
  checks.push(
    images.length === 0
      ? pass('svg.image', 'No embedded images', 'No <image> elements.')
      : fail(
          'svg.image',
          'Contains an image',
          '<image> elements (raster or linked pictures) are not allowed; the logo must be vector shapes only.',
          'Redraw the image as vector paths, or trace it in your design tool.',
        ),
  );
  const external = externalReferences(elements);
  checks.push(
    external.length === 0
      ? pass('svg.external', 'No external references', 'Everything the logo needs is inside the file.')
      : fail(
          'svg.external',
          'External references',
          `${listWords(external, 3)}: the logo may only refer to its own elements (#id).`,
          'Remove links to other files, fonts and URLs; embed shapes and convert text to paths.',
        ),
  );

  const positioned = ['x', 'y'].filter((name) => root?.hasAttribute(name));
  checks.push(
    positioned.length === 0
      ? pass('svg.root-position', 'No x/y on the root', 'The <svg> element has no x or y attribute.')
      : fail(
          'svg.root-position',
          'x/y on the root element',
          `The <svg> element has ${listWords(positioned.map((name) => `${name}=`))}, which Tiny PS does not allow.`,
          'Remove x and y from the <svg> element.',
        ),
  );

  details.width = root.getAttribute('width') ?? undefined;
  details.height = root.getAttribute('height') ?? undefined;
  const viewBoxText = root.getAttribute('viewBox');
  const viewBox = viewBoxText
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  if (!viewBoxText) {
    checks.push(
      fail('svg.viewbox', 'No viewBox', 'Without a viewBox the logo cannot be scaled into the round or square frames mail apps use.', 'Add a square viewBox, e.g. viewBox="0 0 512 512".'),
    );
  } else if (!viewBox || viewBox.length !== 4 || viewBox.some((value) => !Number.isFinite(value)) || (viewBox[2] ?? 0) <= 0 || (viewBox[3] ?? 0) <= 0) {
    checks.push(
      fail('svg.viewbox', 'Invalid viewBox', `viewBox="${viewBoxText}" is not four numbers with a positive width and height.`, 'Set a square viewBox, e.g. viewBox="0 0 512 512".'),
    );
  } else {
    details.viewBox = viewBox as [number, number, number, number];
    checks.push(
      viewBox[2] === viewBox[3]
        ? pass('svg.viewbox', 'Square viewBox', `viewBox="${viewBoxText}".`)
        : fail(
            'svg.viewbox',
            'viewBox is not square',
            `viewBox="${viewBoxText}" is ${viewBox[2]}×${viewBox[3]}; BIMI logos must be square.`,
            'Make the artboard square (equal width and height) with the logo centred, and export again.',
          ),
    );
  }
  if (details.width && details.height && details.width !== details.height) {
    checks.push(
      warn(
        'svg.dimensions',
        'Width and height differ',
        `width="${details.width}" and height="${details.height}": the logo should be square.`,
        'Remove width and height, or make them equal.',
      ),
    );
  }
  return { checks, score: scoreChecks(checks), details };
}

/** Element name without prefix, lower-cased (a prefixed <svg:script> is still a script). */
function nameOf(element: Element): string {
  return (element.localName ?? element.tagName).toLowerCase();
}

function attributesOf(element: Element) {
  const list = [];
  for (let index = 0; index < element.attributes.length; index += 1) {
    const attribute = element.attributes.item(index);
    if (attribute) list.push(attribute);
  }
  return list;
}

/** href/xlink:href to anything but a local #fragment, and url(…) or @import to other files in styles. */
function externalReferences(elements: Element[]): string[] {
  const found: string[] = [];
  for (const element of elements) {
    for (const attribute of attributesOf(element)) {
      const name = attribute.localName ?? attribute.name;
      const value = attribute.value.trim();
      if (name === 'href' && !value.startsWith('#')) found.push(`${attribute.name}="${value.slice(0, 60)}"`);
      else if (/url\(\s*['"]?(?!#)/i.test(value)) found.push(`${attribute.name}="${value.slice(0, 60)}"`);
    }
    if (element.localName === 'style') {
      const css = element.textContent ?? '';
      if (/@import|url\(\s*['"]?(?!#)/i.test(css)) found.push('a <style> that loads other files');
    }
  }
  return [...new Set(found)];
}
