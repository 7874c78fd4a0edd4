import type { ComponentType, ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import type { RemoteRoutesProps } from '@bimi/contracts/remote-modules';
import { PageIntro } from './PageIntro';

export interface RouteEntry {
  path: string;
  title: string;
  description?: string;
}

export interface PageProps {
  route: RouteEntry;
}

/**
 * A remote's routes, rendered inside the shell's one router from the table the remote
 * publishes (routes.json): each path gets its page, and any other path the shell's 404.
 */
export function RouteTable({
  routes,
  pages,
  fallback,
  notFound,
}: {
  routes: readonly RouteEntry[];
  pages: Readonly<Record<string, ComponentType<PageProps>>>;
  fallback: ComponentType<PageProps>;
  notFound: ReactNode;
}) {
  return (
    <Routes>
      {routes.map((route) => {
        const Page = pages[route.path] ?? fallback;
        return <Route key={route.path} path={route.path} element={<Page route={route} />} />;
      })}
      <Route path="*" element={notFound} />
    </Routes>
  );
}

/** A route without a page of its own: its heading and lead, from routes.json. */
export function GenericPage({ route }: PageProps) {
  return <PageIntro title={route.title} lead={route.description} />;
}

/**
 * A remote's exposed `./routes` module, made from its route table (its routes.json) and its pages:
 * every path gets its page (or GenericPage), wrapped in the element that names the remote and its
 * build version (QA and the deploy flow read them).
 */
export function remoteRoutes(
  remote: string,
  version: string,
  table: { routes: readonly RouteEntry[] },
  pages: Readonly<Record<string, ComponentType<PageProps>>>,
): ComponentType<RemoteRoutesProps> {
  function RemoteRoutes({ notFound }: RemoteRoutesProps) {
    return (
      <div data-remote={remote} data-version={version} style={{ display: 'contents' }}>
        <RouteTable routes={table.routes} pages={pages} fallback={GenericPage} notFound={notFound} />
      </div>
    );
  }
  RemoteRoutes.displayName = `RemoteRoutes(${remote})`;
  return RemoteRoutes;
}
