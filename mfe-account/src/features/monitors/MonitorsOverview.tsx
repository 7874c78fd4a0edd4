import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import AddCircleOutline from '@mui/icons-material/AddCircleOutlineOutlined';
import { CERTIFICATE_EXPIRING_WITHIN_DAYS, MONITOR_PATHS, MonitorList, type MonitorListItem } from '@bimi/contracts/monitors';
import type { AddMonitorModalProps } from '@bimi/contracts/remote-modules';
import { whenIdleAfterVisitorActs } from '@bimi/ui/idle';
import { useApi } from '../../lib/useApi';

// The modal (a form, a dialog and their MUI parts, about 40 KB gzip in 9 files) is not needed to
// show the dashboard: it loads once the monitors are shown, when the browser is idle after the
// visitor acted, or at the first click on Add Monitor.
const loadAddMonitorModal = () => import('../add-monitor/AddMonitorModal');

/** Said in the section in place of the form when its code could not be loaded; the next opening tries again. */
function AddMonitorUnavailable({ open, onClose }: AddMonitorModalProps) {
  if (!open) return null;
  return (
    <Alert severity="error" action={<Button onClick={onClose}>Close</Button>}>
      The Add Monitor form could not be loaded. Check your connection and try again.
    </Alert>
  );
}

/** The lazy modal, and whether its code failed to load (then a new one is made for the next opening). */
function lazyAddMonitorModal() {
  let failed = false;
  const Modal = lazy(() =>
    loadAddMonitorModal().then(
      (module) => ({ default: module.AddMonitorModal }),
      () => {
        failed = true;
        return { default: AddMonitorUnavailable };
      },
    ),
  );
  return { Modal, failed: () => failed };
}

function scoreColour(score: number): { bg: string; fg: string } {
  if (score >= 80) return { bg: '#e6f4ea', fg: '#1e6b34' };
  if (score >= 50) return { bg: '#fff4e5', fg: '#8a4b00' };
  return { bg: '#fdecea', fg: '#a4221b' };
}

function Score({ monitor }: { monitor: MonitorListItem }) {
  if (monitor.healthScore === null) return <Chip size="small" label={monitor.checking ? 'Checking…' : 'Not checked'} />;
  const { bg, fg } = scoreColour(monitor.healthScore);
  return (
    <Box
      aria-label={`Health score ${monitor.healthScore} of 100`}
      data-testid="monitor-score"
      sx={{ minWidth: 48, height: 48, borderRadius: '50%', bgcolor: bg, color: fg, display: 'grid', placeItems: 'center', fontWeight: 800, fontSize: 17, flexShrink: 0 }}
    >
      {monitor.healthScore}
    </Box>
  );
}

function MonitorRow({ monitor }: { monitor: MonitorListItem }) {
  return (
    <Box
      component={RouterLink}
      to={MONITOR_PATHS.page(monitor.domain)}
      data-testid="monitor-row"
      sx={{
        display: 'flex',
        gap: 1.75,
        alignItems: 'center',
        p: 1.5,
        borderRadius: 2,
        color: 'inherit',
        textDecoration: 'none',
        border: '1px solid',
        borderColor: 'divider',
        '&:hover': { bgcolor: 'action.hover' },
      }}
    >
      <Score monitor={monitor} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center' }}>
          <Typography sx={{ fontWeight: 700, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{monitor.domain}</Typography>
          {monitor.status === 'paused' && <Chip size="small" label="Paused" />}
        </Box>
        <Typography color="text.secondary" sx={{ fontSize: 14, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {monitor.worstIssue ? monitor.worstIssue.title : monitor.healthScore === null ? 'The first check is running' : 'Nothing to fix'}
        </Typography>
      </Box>
    </Box>
  );
}

/** The dashboard's monitors (score and worst issue each), certificates ending soon, and Add Monitor. */
export function MonitorsOverview() {
  const { data, error, loading, reload } = useApi(MONITOR_PATHS.list, MonitorList);
  const [adding, setAdding] = useState(false);
  const [modalMounted, setModalMounted] = useState(false);
  const [addMonitorModal, setAddMonitorModal] = useState(lazyAddMonitorModal);
  const section = useRef<HTMLElement>(null);
  const { hash } = useLocation();

  // The account navigation's Monitors entry is this section's anchor.
  useEffect(() => {
    if (hash === '#monitors' && !loading) section.current?.scrollIntoView({ block: 'start' });
  }, [hash, loading]);

  useEffect(() => {
    if (!data) return;
    return whenIdleAfterVisitorActs(() => void loadAddMonitorModal().catch(() => {}));
  }, [data]);

  const monitors = data?.monitors ?? [];
  const expiring = monitors
    .filter((m) => m.certificateDaysLeft !== null && m.certificateDaysLeft <= CERTIFICATE_EXPIRING_WITHIN_DAYS)
    .sort((a, b) => (a.certificateDaysLeft ?? 0) - (b.certificateDaysLeft ?? 0));

  return (
    <Paper
      component="section"
      ref={section}
      id="monitors"
      variant="outlined"
      aria-labelledby="monitors-heading"
      sx={{ p: { xs: 2, sm: 3 }, borderRadius: 3, mb: 2.5, scrollMarginTop: 80, display: 'grid', gap: 2 }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5, flexWrap: 'wrap' }}>
        <Box sx={{ flex: '1 1 220px' }}>
          <Typography id="monitors-heading" variant="h2" sx={{ fontSize: 19, fontWeight: 700 }}>
            Domain monitors
          </Typography>
          <Typography color="text.secondary" sx={{ fontSize: 14 }}>
            How your sending domains and logo appear in Gmail, Apple Mail and Yahoo, checked every day.
          </Typography>
        </Box>
        <Button
          variant="contained"
          startIcon={<AddCircleOutline />}
          onClick={() => {
            setModalMounted(true);
            setAdding(true);
          }}
        >
          Add Monitor
        </Button>
      </Box>
      {/* As tall while loading as with no monitors (three lines on a phone): nothing below moves when they come. */}
      <Box sx={{ minHeight: 72, display: 'grid', alignContent: 'start', gap: 2 }}>
        {loading && !data && <Skeleton variant="rounded" height={72} />}
        {error && <Alert severity="warning">{error}</Alert>}
        {data && monitors.length === 0 && (
          <Typography color="text.secondary" sx={{ fontSize: 15 }}>
            No monitors yet. Add your sending domain to see how your mail looks in three inboxes and what to fix first.
          </Typography>
        )}
        {expiring.length > 0 && (
          <Alert severity="warning" data-testid="expiring-certificates">
            <Typography sx={{ fontWeight: 700, fontSize: 15 }}>Certificates ending soon</Typography>
            <Box component="ul" sx={{ m: 0, pl: 2.25 }}>
              {expiring.map((m) => (
                <li key={m.domain}>
                  <RouterLink to={MONITOR_PATHS.page(m.domain)}>{m.domain}</RouterLink>:{' '}
                  {(m.certificateDaysLeft ?? 0) < 0 ? 'expired' : `${m.certificateDaysLeft} day${m.certificateDaysLeft === 1 ? '' : 's'} left`}
                </li>
              ))}
            </Box>
          </Alert>
        )}
        {monitors.length > 0 && (
          <Box sx={{ display: 'grid', gap: 1.25, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
            {monitors.map((monitor) => (
              <MonitorRow key={monitor.domain} monitor={monitor} />
            ))}
          </Box>
        )}
      </Box>
      {!error && (
        <Typography color="text.secondary" sx={{ fontSize: 13 }}>
          {data ? `${monitors.length} of ${data.limit} monitors used` : <Skeleton width={150} />}
        </Typography>
      )}
      {modalMounted && (
        <Suspense fallback={null}>
          <addMonitorModal.Modal
            open={adding}
            onClose={() => {
              setAdding(false);
              if (addMonitorModal.failed()) setAddMonitorModal(lazyAddMonitorModal());
              void reload();
            }}
          />
        </Suspense>
      )}
    </Paper>
  );
}
