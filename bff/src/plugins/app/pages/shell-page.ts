import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { PAGE_STATE_ID, type PageState, type PageStyleSheet } from '@bimi/contracts/page-state';
import type { PublicConfig } from '@bimi/contracts/public-config';
import type { Registry, RemoteRoute } from '@bimi/contracts/registry';
import { SITE_NAME } from '@bimi/contracts/site';
import fp from 'fastify-plugin';
import { Parser } from 'htmlparser2';
import { watchBuildFile } from '../../../lib/build-file';
import { escapeHtml, jsonForScriptElement } from '../../../lib/html';
import type { Preload } from './remote-registry';

/** Where the shell's template asks for the page data, inside <head>. */
export const INJECTION_PLACEHOLDER = '<!--bff:inject-->';

export interface PageData {
  registry: Registry;
  publicConfig: PublicConfig;
  /** The route the path resolves to: its title and description go into the page's head. */
  route?: RemoteRoute;
  /** Files of the route's remote to fetch at once, in parallel with the shell's own. */
  preloads?: Preload[];
  /** The page's absolute address without its query (the site's public URL and the path): its canonical URL. */
  pageUrl?: string;
  /** The page as the server rendered it: it goes into #root, and the browser hydrates it. */
  rootHtml?: string;
  /** The styles of `rootHtml` (Emotion's sheets): they go into the head. */
  rootStyles?: PageStyleSheet[];
  /** Ids of elements of the server-rendered page that must be parsed before it is first painted. */
  paintAfter?: string[];
  /** What a signed-in visitor's page was rendered with: the browser hydrates with the same. */
  pageState?: PageState;
}

/** The shell template's empty root (html-webpack-plugin may drop the quotes), with its <noscript> notice. */
const EMPTY_ROOT = /<div id=("?)root\1>(?:<noscript>[\s\S]*?<\/noscript>)?<\/div>/;

/**
 * A sheet as Emotion's browser cache finds it: `data-emotion` holds the cache's key and the names it
 * takes as inserted (a global sheet, `{key}-global {name}`, is taken by its Global component). A `<`
 * in the CSS is written as its CSS escape, so no text can close the element. (As in Emotion's own
 * server rendering, a Global whose styles use `keyframes` is not found again in the browser, which
 * inserts its sheet once more: none does so here.)
 */
function styleElement({ key, ids, css }: PageStyleSheet): string {
  return `<style data-emotion="${escapeHtml([key, ...ids].join(' '))}">${css.replace(/</g, '\\3c ')}</style>`;
}

/** A page of the shell: its HTML, and the content security policy that lets its inline scripts run. */
export interface RenderedShellPage {
  html: string;
  policy: string;
}

export interface ShellPage {
  /** The shell's index.html with the page data filled in; undefined while the shell is not built. */
  render(data: PageData): Promise<RenderedShellPage | undefined>;
  /** The template as it is now: the same object until index.html changes (a page kept from another one is stale). */
  template(): Promise<unknown>;
}

/** The page data rides along in the HTML so the shell can start without another round trip. */
function preloadLink({ href, as }: Preload): string {
  // The federation runtime fetches the manifest in CORS mode and adds the entry and chunks
  // as plain scripts: each hint must be made the same way or the browser fetches twice.
  return as === 'fetch' ? `<link rel="preload" href="${escapeHtml(href)}" as="fetch" crossorigin="anonymous">` : `<link rel="preload" href="${escapeHtml(href)}" as="script">`;
}

/**
 * What search engines and link previews read of a page: the canonical URL and the Open Graph tags
 * of a public page; `noindex` for the account area (signed-in pages) and for a page not found.
 */
function headTags(route: RemoteRoute | undefined, pageUrl: string | undefined): string {
  if (!route || route.layout === 'account') return '<meta name="robots" content="noindex">';
  if (!pageUrl) return '';
  const meta = (property: string, content: string) => `<meta property="${property}" content="${escapeHtml(content)}">`;
  return (
    `<link rel="canonical" href="${escapeHtml(pageUrl)}">` +
    meta('og:type', 'website') +
    meta('og:site_name', SITE_NAME) +
    meta('og:title', route.title) +
    (route.description ? meta('og:description', route.description) : '') +
    meta('og:url', pageUrl)
  );
}

export function injectPageData(html: string, { registry, publicConfig, route, preloads = [], pageUrl, rootHtml, rootStyles = [], paintAfter = [], pageState }: PageData): string {
  // A template without the placeholder is not the shell's: it goes out as it is.
  if (!html.includes(INJECTION_PLACEHOLDER)) return html;
  const scripts =
    headTags(route, pageUrl) +
    preloads.map(preloadLink).join('') +
    `<script id="remote-registry" type="application/json">${jsonForScriptElement(registry)}</script>` +
    `<script id="public-config" type="application/json">${jsonForScriptElement(publicConfig)}</script>` +
    (pageState ? `<script id="${PAGE_STATE_ID}" type="application/json">${jsonForScriptElement(pageState)}</script>` : '');
  // A function replacement, so `$&` and friends in the data are not read as patterns.
  let page = html.replace(INJECTION_PLACEHOLDER, () => scripts);
  // Search engines and link previews read the head before any script runs.
  const title = `${route ? route.title : 'Page not found'} | ${SITE_NAME}`;
  page = page.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(title)}</title>`);
  // The browser hydrates a root marked as server-rendered (shell/src/bootstrap.tsx); the notice
  // that the site needs JavaScript goes, as the page now shows without it.
  if (rootHtml !== undefined) {
    page = page.replace(EMPTY_ROOT, () => `<div id="root" data-server-rendered="true">${rootHtml}</div>`);
    // A first paint made while the parser is half-way through a part that later grows moves what
    // is already on screen (a layout shift): the browser waits for these parts.
    const expected = paintAfter.map((id) => `<link rel="expect" href="#${escapeHtml(id)}" blocking="render">`).join('');
    page = page.replace('</head>', () => `${rootStyles.map(styleElement).join('')}${expected}</head>`);
  }
  if (route?.description) {
    page = page.replace(/(<meta name=("?)description\2 content=)("[^"]*"|[^ >]*)/, (_m, start: string) => `${start}"${escapeHtml(route.description ?? '')}"`);
  }
  return page;
}

/**
 * The hashes (`'sha256-…'`, as a content security policy names them) of the scripts a template has
 * inline: the shell's own (its early-input and start scripts, packages/webpack-config), which the page's policy
 * allows by hash rather than allowing every inline script. Every inline script of the template is
 * hashed, whatever its type (a hash allows only that exact text), with its line breaks as the
 * browser's parser hands them over (CR LF and CR become LF). What the bff injects is data only.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  let inline: string | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      inline = name === 'script' && attributes.src === undefined ? '' : undefined;
    },
    ontext(text) {
      if (inline !== undefined) inline += text;
    },
    onclosetag(name) {
      if (name === 'script' && inline) hashes.add(`'sha256-${createHash('sha256').update(inline.replace(/\r\n?/g, '\n'), 'utf8').digest('base64')}'`);
      inline = undefined;
    },
  });
  parser.end(html);
  return [...hashes];
}

declare module 'fastify' {
  interface FastifyInstance {
    shellPage: ShellPage;
  }
}

export default fp(
  async function shellPage(fastify) {
    const indexPath = join(fastify.config.rootDir, 'shell', 'dist', 'index.html');
    const template = watchBuildFile(
      indexPath,
      (text) => ({ text, policy: fastify.pagePolicy(inlineScriptHashes(text)) }),
      (state) => {
        if (state.status === 'missing') fastify.log.warn(`shell not built: no ${indexPath}; pages answer 503 until it is`);
      },
    );

    fastify.decorate('shellPage', {
      template,
      async render(data) {
        const state = await template();
        if (state.status === 'missing') return undefined;
        if (state.status === 'invalid') throw new Error(`cannot read ${indexPath}: ${state.reason}`);
        return { html: injectPageData(state.value.text, data), policy: state.value.policy };
      },
    } satisfies ShellPage);
  },
  { name: 'shell-page', decorators: { fastify: ['config', 'pagePolicy'] } },
);
