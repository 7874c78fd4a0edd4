import { remoteRoutes } from '@bimi/ui/RouteTable';
import table from '../app/routes.json';
import { pages } from '../app/pages';

/** `checkout/routes`: the pages this remote owns (see src/app/routes.json). */
export default remoteRoutes('checkout', __APP_VERSION__, table, pages);
