import { lazy, Suspense, useMemo, useState, type ComponentType } from 'react';
import { resetRemote } from './registry';
import { useRemoteLoader } from './remote-loader';
import { RemoteBoundary } from './RemoteBoundary';
import { loadThemed } from '../app/load-themed';

/** Embeds a widget another remote exposes (for example `checkout` / `./CartDrawer`). */
export function RemoteWidget<P extends object>({
  remote,
  expose,
  props,
  visible,
  onDismiss,
}: {
  remote: string;
  expose: string;
  props: P;
  /** Whether the widget is meant to be on screen (a closed drawer's error stays hidden). */
  visible?: boolean;
  onDismiss?: () => void;
}) {
  const [attempt, setAttempt] = useState(0);
  const loadRemoteModule = useRemoteLoader();
  const Widget = useMemo(
    () => lazy(loadThemed(() => loadRemoteModule<{ default: ComponentType<P> }>(remote, expose).then((module) => module.default))),
    // A new attempt needs a new lazy component: React keeps a rejected one rejected.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `attempt` is a deliberate extra dependency
    [loadRemoteModule, remote, expose, attempt],
  );
  return (
    <RemoteBoundary
      remote={remote}
      variant="widget"
      visible={visible}
      onDismiss={onDismiss}
      onRetry={() => {
        resetRemote(remote);
        setAttempt((n) => n + 1);
      }}
    >
      <Suspense fallback={null}>
        <Widget {...props} />
      </Suspense>
    </RemoteBoundary>
  );
}
