import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { PageProps } from '@bimi/ui/RouteTable';
import { PageIntro } from '@bimi/ui/PageIntro';

/**
 * One chunk per tool: opening the DMARC inspector downloads the DMARC inspector, not the
 * other eleven (the DKIM generator's key code, the VMC upload…).
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

function PageLoading() {
  return (
    <Box role="status" aria-label="Loading the tool" sx={{ minHeight: '60vh', display: 'grid', placeItems: 'center' }}>
      <CircularProgress />
    </Box>
  );
}

function withSuspense(Page: ComponentType<PageProps>): ComponentType<PageProps> {
  return function LazyPage(props: PageProps) {
    return (
      <Suspense fallback={<PageLoading />}>
        <Page {...props} />
      </Suspense>
    );
  };
}

export const pages: Record<string, ComponentType<PageProps>> = {
  '/account/tools': withSuspense(ToolsIndexPage),
  ...Object.fromEntries(Object.entries(TOOL_PAGES).map(([tool, Page]) => [`/account/tools/${tool}`, withSuspense(Page)])),
  ...Object.fromEntries(PUBLIC_TOOLS.map((tool) => [`/${tool}`, withSuspense(TOOL_PAGES[tool])])),
};

export function GenericPage({ route }: PageProps) {
  return <PageIntro title={route.title} lead={route.description} />;
}
