import { SPEC_ROUTE_OWNERS } from '@bimi/contracts/spec-routes';
import { findRouteOwner } from '@bimi/contracts/route-match';
import { ARTICLES } from '../features/articles/articles';
import { ENROLLMENT_GUIDES } from '../features/enrollment/enrollment-guides';
import { ENTRUST_GUIDES } from '../features/landing/entrust-guides';
import { LANDINGS } from '../features/landing/landings';
import { POLICIES } from '../features/legal/policies';
import { VALIDATION_GUIDE_PATH } from '../features/validation-guide/guide';
import type { Section } from '../lib/document';
import table from './routes.json';
import { contentPages } from './content-pages';

const routeTitle = (path: string) => table.routes.find((route) => route.path === path)?.title;

function linkTargets(sections: readonly Section[]): string[] {
  return sections.flatMap((section) => [...section.blocks.flatMap((block) => (block.kind === 'links' ? block.items.map((item) => item.to) : [])), ...linkTargets(section.subsections ?? [])]);
}

describe('the storefront content pages', () => {
  it('give every route of routes.json except the product pages its own page', () => {
    const withoutPage = table.routes.map((route) => route.path).filter((path) => path !== '/' && !path.startsWith('/products/') && !(path in contentPages));
    expect(withoutPage).toEqual([]);
  });

  it('publish in routes.json the titles the pages show', () => {
    for (const article of ARTICLES) expect(routeTitle(`/articles/${article.slug}`)).toBe(article.title);
    for (const guide of [...ENTRUST_GUIDES, ...ENROLLMENT_GUIDES]) expect(routeTitle(guide.path)).toBe(guide.title);
    for (const policy of POLICIES) expect(routeTitle(policy.path)).toBe(policy.title);
    for (const landing of LANDINGS) expect(routeTitle(landing.path)).toBeDefined();
  });

  it('link only to pages some remote owns, or to the validation guide', () => {
    // The other remotes' pages (tools, account, checkout) come from the spec's route table.
    const remotes = [
      { name: 'storefront', routes: table.routes },
      ...['checkout', 'account', 'tools'].map((name) => ({ name, routes: SPEC_ROUTE_OWNERS.filter(([, owner]) => owner === name).map(([path]) => ({ path, title: path })) })),
    ];
    const targets = [
      ...ARTICLES.flatMap((article) => linkTargets(article.sections)),
      ...ENTRUST_GUIDES.flatMap((guide) => linkTargets(guide.sections)),
      ...ENROLLMENT_GUIDES.flatMap((guide) => linkTargets(guide.sections)),
      ...LANDINGS.map((landing) => landing.productPath),
    ];
    expect(targets.length).toBeGreaterThan(15);
    const broken = targets.filter((to) => to !== VALIDATION_GUIDE_PATH && findRouteOwner(remotes, to.split('?')[0]!) === null);
    expect(broken).toEqual([]);
  });
});
