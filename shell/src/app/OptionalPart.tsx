import { Component, type ErrorInfo, type ReactNode } from 'react';
import { reportCaughtError } from '../analytics/beacons';

/**
 * A part of the frame the page can do without (the phone menu, the toasts), whose code loads when
 * first shown: when it cannot load or throws, it is left out and reported, and `onFailed` lets its
 * opener close it. Without this the error reached ShellErrorBoundary, which replaces the whole page.
 */
export class OptionalPart extends Component<{ name: string; onFailed?: () => void; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportCaughtError(error, info, { kind: 'shell', message: `${this.props.name}: ${error.message}` });
    this.props.onFailed?.();
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
