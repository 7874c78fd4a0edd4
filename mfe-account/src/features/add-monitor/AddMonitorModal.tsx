import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { AddMonitorModalProps } from '@bimi/contracts/remote-modules';
import { MONITOR_PATHS } from '@bimi/contracts/monitors';
import { showToast } from '@bimi/ui/toasts';
import { VISUALLY_HIDDEN } from '@bimi/ui/theme';
import { checkMonitorDomain, createMonitor } from './create-monitor';

/** Spec §4: the modal's states. */
export type AddMonitorState = 'idle' | 'validating' | 'analyzing' | 'success';

/** Spec §4: the monitor page opens 1.5 s after the success toast. */
export const REDIRECT_AFTER_MS = 1500;
/** Spec §8's toast durations. */
const SUCCESS_TOAST_MS = 3000;
const ERROR_TOAST_MS = 5000;

/**
 * The Add Monitor modal (spec §2, §4, §5, §8, §9: 600 wide). While it analyzes (the bff runs the
 * first check before it answers) and after success, nothing closes it: not Cancel, not Escape;
 * a click outside never does.
 */
export function AddMonitorModal({ open, onClose, initialDomain = '' }: AddMonitorModalProps) {
  const navigate = useNavigate();
  const [state, setState] = useState<AddMonitorState>('idle');
  const [value, setValue] = useState(initialDomain);
  const [error, setError] = useState<string | null>(null);
  // A domain this account already monitors: its monitor is one click away.
  const [monitored, setMonitored] = useState<string | null>(null);
  // The toasts sit outside the modal, which hides the rest of the page from screen readers: the outcome is said here too.
  const [outcome, setOutcome] = useState<string | null>(null);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  const busy = state === 'analyzing' || state === 'success';

  // Each opening starts clean, with the domain a link may have named.
  useEffect(() => {
    if (!open) return;
    setState('idle');
    setValue(initialDomain);
    setError(null);
    setMonitored(null);
    setOutcome(null);
  }, [open, initialDomain]);
  useEffect(() => () => clearTimeout(redirect.current), []);

  const close = () => {
    if (!busy) onClose();
  };

  const validate = (typed: string) => {
    const checked = checkMonitorDomain(typed);
    setError(checked.ok ? null : checked.message);
    return checked;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setState('validating');
    setOutcome(null);
    const checked = validate(value);
    if (!checked.ok) {
      setState('idle');
      return;
    }
    const { domain } = checked;
    setState('analyzing');
    const created = await createMonitor(domain);
    if (!created.ok) {
      setState('idle');
      // Under the field too, where it stays until the domain is changed: the toast goes after 5 s.
      setError(created.message);
      setMonitored(created.alreadyMonitored ? domain : null);
      setOutcome(`Error Creating Monitor: ${created.message}`);
      showToast({ severity: 'error', title: 'Error Creating Monitor', message: created.message, durationMs: ERROR_TOAST_MS });
      return;
    }
    setState('success');
    showToast({ severity: 'success', title: 'Monitor Created Successfully', message: `Started monitoring ${domain}. Redirecting to monitor details...`, durationMs: SUCCESS_TOAST_MS });
    redirect.current = setTimeout(() => {
      // Closed first: opened from a link (/account/dashboard?addMonitor=…), closing takes the
      // parameter off the dashboard's address, which after the redirect took the visitor back there.
      onClose();
      navigate(MONITOR_PATHS.page(domain));
    }, REDIRECT_AFTER_MS);
  };

  return (
    <Dialog
      open={open}
      onClose={(_event, reason) => {
        // Spec §4: never by a click outside; Escape only when idle (close() refuses while busy).
        if (reason !== 'backdropClick') close();
      }}
      aria-labelledby="add-monitor-title"
      data-testid="add-monitor-modal"
      data-state={state}
      slotProps={{ paper: { component: 'form', noValidate: true, onSubmit: submit, sx: { width: 600, maxWidth: 'calc(100% - 32px)', m: 2, borderRadius: 3 } } as object }}
    >
      <DialogTitle id="add-monitor-title" sx={{ fontWeight: 700 }}>
        Add Monitor
      </DialogTitle>
      <DialogContent>
        <Typography color="text.secondary" sx={{ mb: 2, fontSize: 15 }}>
          We check the domain&apos;s DMARC, SPF, DKIM, BIMI record, logo and mark certificate every day, show how it appears in Gmail, Apple Mail and Yahoo, and tell you when something
          changes.
        </Typography>
        <TextField
          autoFocus
          fullWidth
          label="Domain"
          name="domain"
          placeholder="example.com"
          value={value}
          disabled={busy}
          onChange={(event) => {
            setValue(event.target.value);
            if (error) setError(null);
            setMonitored(null);
          }}
          onBlur={() => {
            if (!busy) validate(value);
          }}
          error={Boolean(error)}
          helperText={error ?? ' '}
          slotProps={{ htmlInput: { autoCapitalize: 'none', autoCorrect: 'off', spellCheck: false, inputMode: 'url', 'aria-describedby': 'add-monitor-status' } }}
        />
        <Box id="add-monitor-status" role="status" aria-live="polite" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, minHeight: 28, color: 'text.secondary', fontSize: 14 }}>
          {state === 'analyzing' && (
            <>
              <CircularProgress size={20} aria-hidden />
              <span>Analyzing the domain&apos;s records…</span>
            </>
          )}
          {state === 'success' && <span>Monitor created. Opening its page…</span>}
          {state === 'idle' && outcome && (
            <Box component="span" sx={VISUALLY_HIDDEN}>
              {outcome}
            </Box>
          )}
        </Box>
        {state === 'idle' && monitored && (
          <Button
            size="small"
            sx={{ px: 0 }}
            onClick={() => {
              onClose();
              navigate(MONITOR_PATHS.page(monitored));
            }}
          >
            Open the monitor of {monitored}
          </Button>
        )}
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5, gap: 1 }}>
        <Button onClick={close} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" variant="contained" disabled={busy} startIcon={state === 'analyzing' ? <CircularProgress size={16} color="inherit" aria-hidden /> : undefined}>
          {state === 'analyzing' ? 'Analyzing…' : 'Add Monitor'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
