import type { ComponentType, ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';

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
