import { Component, type ErrorInfo, type ReactNode } from 'react';
import Button from '@mui/material/Button';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { reportClientError } from '../analytics/beacons';
import { RemoteLoadError } from './registry';

interface Props {
  remote: string;
  /** A route fills the page area; a widget shows a compact message in its place. */
  variant: 'route' | 'widget';
  /** When this changes (the path), a remote that threw gets another chance. */
  resetKey?: string;
  onRetry: () => void;
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
    const compact = this.props.variant === 'widget';
    return (
      <Box
        role="alert"
        data-remote-error={this.props.remote}
        sx={{ textAlign: 'center', px: 3, py: compact ? 3 : { xs: 8, md: 12 }, maxWidth: 640, mx: 'auto' }}
      >
        <Typography component={compact ? 'p' : 'h1'} variant={compact ? 'subtitle1' : 'h2'} gutterBottom>
          {error instanceof RemoteLoadError ? 'This part of the site could not be loaded' : 'Something went wrong on this page'}
        </Typography>
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          The rest of the site still works. Please try again in a moment.
        </Typography>
        <Button variant="contained" onClick={this.retry}>
          Retry
        </Button>
      </Box>
    );
  }
}
