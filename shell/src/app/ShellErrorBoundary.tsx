import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportCaughtError } from '../analytics/beacons';

/**
 * The last line of defence: if the shell itself throws while rendering, the visitor gets a
 * message and a way to reload instead of a blank page, and the error is reported. Plain
 * elements only, so it renders even when the failure is in the theme or the layout.
 */
export class ShellErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportCaughtError(error, info, { kind: 'shell', message: error.message });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="boot">
        <h1>Something went wrong</h1>
        <p>Please reload the page. If it keeps happening, try again in a few minutes.</p>
        <button type="button" onClick={() => window.location.reload()}>
          Reload
        </button>
      </div>
    );
  }
}
