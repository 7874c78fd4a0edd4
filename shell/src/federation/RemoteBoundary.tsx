import { Component, type ErrorInfo, type ReactNode } from 'react';
import styled from '@emotion/styled';
import { brand } from '@bimi/ui/brand';
import { reportCaughtError } from '../analytics/beacons';
import { PageReady } from './PageReady';
import { RemoteLoadError } from './registry';
import { Button, MessageArea, MessageText, Surface, up } from '../layout/plain';

// A widget (the cart drawer) overlays the page: its message does too, instead of squeezing into
// whatever element hosts it (the header).
const WidgetMessage = styled(Surface)({ position: 'fixed', top: 76, right: 16, zIndex: 1300, width: 'min(360px, calc(100vw - 32px))', boxSizing: 'border-box', padding: 20 });
const WidgetTitle = styled.p({ margin: '0 0 0.35em', fontSize: '1rem', fontWeight: 700, lineHeight: 1.75 });
const RouteMessage = styled(MessageArea)({ maxWidth: 640, margin: '0 auto', padding: '64px 24px', [up.md]: { padding: '96px 24px' } });
const RouteTitle = styled.h1({ margin: '0 0 0.35em', fontSize: '1.6rem', fontWeight: 700, lineHeight: 1.2 });

interface Props {
  remote: string;
  /** A route fills the page area; a widget shows a compact message in its place. */
  variant: 'route' | 'widget';
  /** When this changes (the path), a remote that threw gets another chance. */
  resetKey?: string;
  onRetry: () => void;
  /** A widget's message floats over the page while the widget would be showing, with Close. */
  visible?: boolean;
  onDismiss?: () => void;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/**
 * Failure isolation (DESIGN rule 4): a remote that is down or throws shows an in-place
 * message with Retry; the header, footer, cart and other remotes keep working.
 */
export class RemoteBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    reportCaughtError(error, info, { kind: error instanceof RemoteLoadError ? 'remote-load' : 'remote-render', remote: this.props.remote, message: error.message });
  }

  override componentDidUpdate(previous: Props): void {
    if (this.state.error && previous.resetKey !== this.props.resetKey) this.setState({ error: null });
  }

  private retry = () => {
    this.props.onRetry();
    this.setState({ error: null });
  };

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    const title = error instanceof RemoteLoadError ? 'This part of the site could not be loaded' : 'Something went wrong on this page';
    const detail = 'The rest of the site still works. Please try again in a moment.';
    if (this.props.variant === 'widget') {
      if (this.props.visible === false) return null;
      return (
        <WidgetMessage role="alert" data-remote-error={this.props.remote} raised>
          <WidgetTitle>{title}</WidgetTitle>
          <MessageText style={{ fontSize: '0.875rem', lineHeight: 1.43, marginBottom: 16 }}>{detail}</MessageText>
          <div style={{ display: 'flex', gap: 8, justifyContent: 'flex-end' }}>
            {this.props.onDismiss && (
              <Button type="button" onClick={this.props.onDismiss} style={{ color: brand.blue }}>
                Close
              </Button>
            )}
            <Button type="button" variant="contained" onClick={this.retry}>
              Retry
            </Button>
          </div>
        </WidgetMessage>
      );
    }
    return (
      <RouteMessage role="alert" data-remote-error={this.props.remote}>
        <RouteTitle>{title}</RouteTitle>
        <MessageText style={{ marginBottom: 24 }}>{detail}</MessageText>
        <Button type="button" variant="contained" onClick={this.retry}>
          Retry
        </Button>
        <PageReady />
      </RouteMessage>
    );
  }
}
