import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { PageProps } from '@bimi/ui/RouteTable';
import table from './routes.json';

/**
 * One chunk per tool: opening the DMARC inspector downloads the DMARC inspector, not the
 * other eleven (the DKIM generator's key code, the VMC upload…). No Suspense boundary of their
 * own: a page waiting for its chunk suspends the shell's boundary for the remote, so a
 * server-rendered tool page is hydrated, and marked ready, as one piece with its chunk (a
 * boundary here would hydrate later than the shell's ready mark, and a click before then is lost).
 */
const TOOL_PAGES = {
  'vmc-validator': lazy(() => import('../features/vmc-validator/VmcValidatorPage')),
  'bimi-checker': lazy(() => import('../features/bimi-checker/BimiCheckerPage')),
  'dmarc-inspector': lazy(() => import('../features/dmarc-inspector/DmarcInspectorPage')),
  'txt-checker': lazy(() => import('../features/txt-checker/TxtCheckerPage')),
  'cname-checker': lazy(() => import('../features/cname-checker/CnameCheckerPage')),
  'domain-records': lazy(() => import('../features/domain-records/DomainRecordsPage')),
  'spf-lookup': lazy(() => import('../features/spf-lookup/SpfLookupPage')),
  'dkim-lookup': lazy(() => import('../features/dkim-lookup/DkimLookupPage')),
  'dmarc-generator': lazy(() => import('../features/dmarc-generator/DmarcGeneratorPage')),
  'spf-generator': lazy(() => import('../features/spf-generator/SpfGeneratorPage')),
  'dkim-generator': lazy(() => import('../features/dkim-generator/DkimGeneratorPage')),
  'bimi-generator': lazy(() => import('../features/bimi-generator/BimiGeneratorPage')),
} satisfies Record<string, LazyExoticComponent<ComponentType<PageProps>>>;

/** The three tools that are also public pages (spec §2). */
const PUBLIC_TOOLS = ['vmc-validator', 'bimi-checker', 'dmarc-inspector'] as const;

const ToolsIndexPage = lazy(() => import('../features/tools-index/ToolsIndexPage'));
/** What the tools index lists: every page under /account/tools in this remote's route table (not a route that only forwards). */
const ACCOUNT_TOOLS = table.routes.filter((entry) => entry.path.startsWith('/account/tools/') && !('redirectTo' in entry));

function ToolsIndex({ route }: PageProps) {
  return <ToolsIndexPage route={route} tools={ACCOUNT_TOOLS} />;
}

export const pages: Record<string, ComponentType<PageProps>> = {
  '/account/tools': ToolsIndex,
  ...Object.fromEntries(Object.entries(TOOL_PAGES).map(([tool, Page]) => [`/account/tools/${tool}`, Page])),
  ...Object.fromEntries(PUBLIC_TOOLS.map((tool) => [`/${tool}`, TOOL_PAGES[tool]])),
};
