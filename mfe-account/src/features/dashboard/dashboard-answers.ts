import { MONITOR_PATHS, ORDER_PATHS } from '@bimi/contracts/api-paths';

export type OrderCardFilter = 'incomplete' | 'expiring';

export const orderListPath = (filter: OrderCardFilter) => `${ORDER_PATHS.orders}?status=${filter}`;

/** The GET answers the dashboard shows, asked for while its code loads (src/app/pages.tsx). */
export const DASHBOARD_ANSWERS = [MONITOR_PATHS.list, orderListPath('incomplete'), orderListPath('expiring')];
