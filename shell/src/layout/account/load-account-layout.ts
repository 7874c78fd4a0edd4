import { loadOnce } from '@bimi/ui/load-once';

/**
 * The account frame's code (sidebar, tabs, sheet): its own chunks, which visitors of the public
 * site never download. They download when this is first called; their modules run in parts
 * (account-layout-parts.ts). A failed download is asked for again by the next call.
 */
export const loadAccountLayout = loadOnce(() => import('./account-layout-parts').then(({ loadAccountLayoutInParts }) => loadAccountLayoutInParts()));
