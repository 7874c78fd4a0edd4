import type { ComponentType, ReactNode } from 'react';

/**
 * The public API of the remotes: what each exposed module exports. The shell and the
 * remotes both type against these, and each remote's contract test checks its exposed
 * modules satisfy them.
 */
export interface RemoteRoutesProps {
  /** The shell's 404 page, shown for a path under the remote's prefixes that it does not know. */
  notFound: ReactNode;
}
export interface RemoteRoutesModule {
  default: ComponentType<RemoteRoutesProps>;
  /**
   * Optional: starts loading what the page at `pathname` needs (its code, the answers it shows)
   * before it renders. The shell calls it on the first page of a visit that waits for the session.
   */
  preload?: (pathname: string) => void;
}

export interface CartDrawerProps {
  open: boolean;
  onClose: () => void;
}
export interface CartDrawerModule {
  default: ComponentType<CartDrawerProps>;
}

/**
 * The account remote's Add Monitor modal (spec §2, §4, §5, §8): the shell's account frame opens
 * it, and the dashboard. `initialDomain` prefills the field (a link such as
 * /account/dashboard?addMonitor=example.com). On success the modal itself redirects to the
 * monitor page after 1.5 s, then calls `onClose`.
 */
/** The query parameter that opens the Add Monitor modal on the dashboard, prefilled. */
export const ADD_MONITOR_PARAM = 'addMonitor';
/** /account/dashboard?addMonitor=example.com: the dashboard with the modal open for `domain`. */
export const addMonitorLink = (domain: string): string => `/account/dashboard?${new URLSearchParams({ [ADD_MONITOR_PARAM]: domain })}`;

export interface AddMonitorModalProps {
  open: boolean;
  onClose: () => void;
  initialDomain?: string;
}
export interface AddMonitorModalModule {
  default: ComponentType<AddMonitorModalProps>;
}

/** The four remotes, by federation name (each builds from `mfe-<name>/`). */
export const REMOTE_NAMES = ['storefront', 'checkout', 'account', 'tools'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

/** Every remote exposes `./routes`; some add widgets other apps embed. */
export const REMOTE_EXPOSES: Record<RemoteName, readonly string[]> = {
  storefront: ['./routes'],
  checkout: ['./routes', './CartDrawer'],
  account: ['./routes', './AddMonitorModal'],
  tools: ['./routes'],
};
