import { remoteRoutes } from '@bimi/ui/RouteTable';
import table from '../app/routes.json';
import { pages } from '../app/pages';

/** `account/routes`: the pages this remote owns (see src/app/routes.json). */
export default remoteRoutes('account', __APP_VERSION__, table, pages);
