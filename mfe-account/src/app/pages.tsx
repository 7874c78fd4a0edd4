import type { ComponentType } from 'react';
import { Navigate } from 'react-router-dom';
import type { PageProps } from '@bimi/ui/RouteTable';
import { PageIntro } from '@bimi/ui/PageIntro';
import { DashboardPage } from '../features/dashboard/DashboardPage';

export const pages: Record<string, ComponentType<PageProps>> = {
  '/account': () => <Navigate to="/account/dashboard" replace />,
  '/account/settings': () => <Navigate to="/account/settings/profile" replace />,
  '/account/dashboard': DashboardPage,
};

export function GenericPage({ route }: PageProps) {
  return <PageIntro title={route.title} lead={route.description} />;
}
