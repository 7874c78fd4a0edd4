import { remoteRoutes } from '@bimi/ui/RouteTable';
import table from '../app/routes.json';
import { preloadPage } from '@bimi/ui/lazy-page';
import { pages } from '../app/pages';

/** `checkout/routes`: the pages this remote owns (see src/app/routes.json). */
export default remoteRoutes('checkout', __APP_VERSION__, table, pages);

/** The shell preloads the first page of a visit with the routes: its code. */
export const preload = (pathname: string) => preloadPage(pages, table.routes, pathname);
