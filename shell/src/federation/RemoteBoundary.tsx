import { Component, type ErrorInfo, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { reportClientError } from '../analytics/beacons';
import { PageReady } from './PageReady';
import { RemoteLoadError } from './registry';

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
    reportClientError({
      kind: error instanceof RemoteLoadError ? 'remote-load' : 'remote-render',
      remote: this.props.remote,
      message: error.message,
      path: window.location.pathname,
      stack: (error.stack ?? '') + (info.componentStack ?? ''),
    });
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
      // A widget (the cart drawer) overlays the page: its message does too, instead of
      // squeezing into whatever element hosts it (the header).
      if (this.props.visible === false) return null;
      return (
        <Paper
          role="alert"
          data-remote-error={this.props.remote}
          elevation={8}
          sx={{ position: 'fixed', top: 76, right: 16, zIndex: 1300, width: 'min(360px, calc(100vw - 32px))', p: 2.5, color: 'text.primary' }}
        >
          <Typography component="p" variant="subtitle1" sx={{ fontWeight: 700 }} gutterBottom>
            {title}
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
            {detail}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, justifyContent: 'flex-end' }}>
            {this.props.onDismiss && <Button onClick={this.props.onDismiss}>Close</Button>}
            <Button variant="contained" onClick={this.retry}>
              Retry
            </Button>
          </Box>
        </Paper>
      );
    }
    return (
      <Box role="alert" data-remote-error={this.props.remote} sx={{ textAlign: 'center', px: 3, py: { xs: 8, md: 12 }, maxWidth: 640, mx: 'auto' }}>
        <Typography component="h1" variant="h2" gutterBottom>
          {title}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {detail}
        </Typography>
        <Button variant="contained" onClick={this.retry}>
          Retry
        </Button>
        <PageReady />
      </Box>
    );
  }
}
