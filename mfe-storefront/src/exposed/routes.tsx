import type { RemoteRoutesProps } from '@bimi/contracts/remote-modules';
import { RouteTable } from '@bimi/ui/RouteTable';
import table from '../app/routes.json';
import { pages, GenericPage } from '../app/pages';

/** `storefront/routes`: every marketing, product, legal, landing and enrollment page. */
export default function StorefrontRoutes({ notFound }: RemoteRoutesProps) {
  return <RouteTable routes={table.routes} pages={pages} fallback={GenericPage} notFound={notFound} />;
}
