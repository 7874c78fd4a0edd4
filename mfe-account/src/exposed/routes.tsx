import { remoteRoutes } from '@bimi/ui/RouteTable';
import table from '../app/routes.json';
import { pages, preloadPage } from '../app/pages';

/** `account/routes`: the pages this remote owns (see src/app/routes.json). */
export default remoteRoutes('account', __APP_VERSION__, table, pages);

/** The shell preloads the first page of a visit while the session comes: its code and its answers. */
export const preload = (pathname: string) => preloadPage(table.routes, pathname);
