import type { RemoteRoutesProps } from '@bimi/contracts/remote-modules';
import { RouteTable } from '@bimi/ui/RouteTable';
import table from '../app/routes.json';
import { pages, GenericPage } from '../app/pages';

/** `account/routes`: the pages this remote owns (see src/app/routes.json). */
export default function AccountRoutes({ notFound }: RemoteRoutesProps) {
  return (
    // The remote's build version, visible to QA and to the deploy flow's test.
    <div data-remote="account" data-version={__APP_VERSION__} style={{ display: 'contents' }}>
      <RouteTable routes={table.routes} pages={pages} fallback={GenericPage} notFound={notFound} />
    </div>
  );
}
