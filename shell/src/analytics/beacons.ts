import { SITE_API_PATHS } from '@bimi/contracts/api-paths';
import type { ErrorInfo } from 'react';
import type { ClientErrorReport, PageViewBeacon } from '@bimi/contracts/telemetry';

function send(url: string, body: unknown): void {
  const json = JSON.stringify(body);
  // sendBeacon survives navigation and never delays the page; fetch is the fallback.
  if (navigator.sendBeacon?.(url, new Blob([json], { type: 'text/plain;charset=UTF-8' }))) return;
  void fetch(url, { method: 'POST', body: json, keepalive: true, headers: { 'content-type': 'application/json' } }).catch(() => {});
}

/**
 * Spec §7: the page-view beacon is always sent, whatever the cookie consent. From a task of its
 * own: the first view's beacon was sent from the effects of the hydration's commit, one of the
 * page's longest tasks.
 */
export function sendPageView(view: PageViewBeacon): void {
  setTimeout(() => send(SITE_API_PATHS.pageView, view), 0);
}

export function reportClientError(report: ClientErrorReport): void {
  send(SITE_API_PATHS.clientErrors, {
    ...report,
    message: report.message.slice(0, 2000),
    stack: report.stack?.slice(0, 8000),
  });
}

/** An error a React error boundary caught, reported with the page's path and the component stack. */
export function reportCaughtError(error: Error, info: ErrorInfo, report: Pick<ClientErrorReport, 'kind' | 'remote' | 'message'>): void {
  reportClientError({ ...report, path: window.location.pathname, stack: (error.stack ?? '') + (info.componentStack ?? '') });
}
