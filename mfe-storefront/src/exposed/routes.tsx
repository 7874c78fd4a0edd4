import { remoteRoutes } from '@bimi/ui/RouteTable';
import table from '../app/routes.json';
import { pages } from '../app/pages';

/** `storefront/routes`: every marketing, product, legal, landing and enrollment page. */
export default remoteRoutes('storefront', __APP_VERSION__, table, pages);
