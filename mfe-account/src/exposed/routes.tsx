import type { ComponentType } from 'react';
import { Navigate } from 'react-router-dom';
import { remoteRoutes, type PageProps } from '@bimi/ui/RouteTable';
import table from '../app/routes.json';
import { preloadPage } from '@bimi/ui/lazy-page';
import { pages } from '../app/pages';

/**
 * The routes that only forward (redirectTo in routes.json), forwarded here too: the bff and the
 * shell follow them before this remote is asked, but a shell and a bff from before redirectTo
 * (this remote deployed alone) mount it for them. Built here, from this remote's own table: not in
 * @bimi/ui, whose copy is the shell's.
 */
const forwards: Record<string, ComponentType<PageProps>> = Object.fromEntries(
  table.routes.flatMap((route) => {
    const target = 'redirectTo' in route ? route.redirectTo : undefined;
    return target ? [[route.path, () => <Navigate to={target} replace />]] : [];
  }),
);

/** `account/routes`: the pages this remote owns (see src/app/routes.json). */
export default remoteRoutes('account', __APP_VERSION__, table, { ...forwards, ...pages });

/** The shell preloads the first page of a visit while the session comes: its code and its answers. */
export const preload = (pathname: string) => preloadPage(pages, table.routes, pathname);
