import { useEffect } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { dismissToast, type Toast } from '@bimi/ui/toasts';

function ToastCard({ toast }: { toast: Toast }) {
  useEffect(() => {
    const timer = window.setTimeout(() => dismissToast(toast.id), toast.durationMs);
    return () => window.clearTimeout(timer);
  }, [toast.id, toast.durationMs]);
  const { action } = toast;
  return (
    <Alert
      severity={toast.severity}
      variant="filled"
      role={toast.severity === 'error' ? 'alert' : 'status'}
      onClose={action ? undefined : () => dismissToast(toast.id)}
      action={
        action ? (
          <Button
            color="inherit"
            size="small"
            onClick={() => {
              action.onClick?.();
              dismissToast(toast.id);
            }}
          >
            {action.label}
          </Button>
        ) : undefined
      }
      sx={{ boxShadow: 3, minWidth: { xs: 'auto', sm: 320 } }}
    >
      {toast.title ? <AlertTitle>{toast.title}</AlertTitle> : null}
      {toast.message}
    </Alert>
  );
}

/** The visible toasts, bottom centre on phones, bottom left on desktop. */
export function ToastStack({ items }: { items: readonly Toast[] }) {
  return (
    <Stack spacing={1} aria-live="polite" sx={{ position: 'fixed', zIndex: 1500, bottom: { xs: 80, sm: 24 }, left: { xs: 12, sm: 24 }, right: { xs: 12, sm: 'auto' } }}>
      {items.map((toast) => (
        <ToastCard key={toast.id} toast={toast} />
      ))}
    </Stack>
  );
}
