import { lazy, useEffect, useState } from 'react';
import { Link as RouterLink, useNavigate, useParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { MONITOR_PATHS, MonitorDetail, RECORD_GROUP_LABELS, type MonitorIssue } from '@bimi/contracts/monitors';
import { isHygiene } from '@bimi/email-auth/checks';
import type { PageProps } from '@bimi/ui/RouteTable';
import { showToast } from '@bimi/ui/toasts';
import { ApiFailure, failureMessage } from '@bimi/session/api';
import { useApi } from '../../lib/useApi';
import { deleteMonitor, recheckMonitor, setMonitorStatus } from './api';
import { AssistantPanel } from './AssistantPanel';
import { CertificateCardView } from './CertificateCardView';
import { InboxPreviews } from './InboxPreviews';
import { RecordGroups } from './RecordGroups';
import { LocalTime } from '../../components/LocalTime';
import { BrowserOnly } from '../../lib/hydrated';

// @mui/x-charts only ever loads here, in chunks of their own, and only in the browser: its charts
// are sized to their box and laid out in the visitor's time zone, which the server cannot know.
const HealthGauge = lazy(() => import('./HealthGauge'));
const HistoryChart = lazy(() => import('./HistoryChart'));

/** While a run is queued or under way, the page asks again this often. */
const POLL_MS = 3000;
const MAX_POLLS = 100;

function TopIssues({ issues, testId = 'top-issues', empty }: { issues: MonitorIssue[]; testId?: string; empty?: string }) {
  if (issues.length === 0) return empty ? <Typography sx={{ fontSize: 15 }}>{empty}</Typography> : null;
  return (
    <Box component="ol" sx={{ m: 0, pl: 2.5, display: 'grid', gap: 1.25 }} data-testid={testId}>
      {issues.map((issue) => (
        <li key={issue.checkId}>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="span" sx={{ fontWeight: 700, fontSize: 15 }}>
              {issue.title}
            </Typography>
            <Chip size="small" variant="outlined" label={RECORD_GROUP_LABELS[issue.group]} />
          </Box>
          <Typography sx={{ fontSize: 14, color: 'text.secondary', overflowWrap: 'anywhere' }}>{issue.detail}</Typography>
          <Typography sx={{ fontSize: 14, overflowWrap: 'anywhere' }}>
            <strong>Fix: </strong>
            {issue.fix}
          </Typography>
        </li>
      ))}
    </Box>
  );
}

/** "Nothing to fix", said of what could be checked: a group the last run could not read is named, not passed over. */
function nothingToFix(groups: readonly { label: string; status: string }[]): string {
  const notChecked = groups.filter((group) => group.status === 'unreachable').map((group) => group.label);
  if (notChecked.length === 0) return 'Nothing to fix: no check fails or warns.';
  const named = notChecked.length === 1 ? notChecked[0] : `${notChecked.slice(0, -1).join(', ')} and ${notChecked[notChecked.length - 1]}`;
  return `Nothing to fix among what we could check. Not checked this time: ${named}; we try again on the next check.`;
}

/** /account/monitors/{domain}: how the sender appears, the score, what to fix, history, the assistant. */
export function MonitorPage(_props: PageProps) {
  const { domain = '' } = useParams();
  const navigate = useNavigate();
  const { data, error, loading, reload, set } = useApi(MONITOR_PATHS.monitor(domain), MonitorDetail);
  const [busy, setBusy] = useState<'check' | 'status' | 'delete' | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const waiting = Boolean(data && (data.monitor.checking || !data.latest));

  // Polls while a run is under way, for a few minutes at most (a stuck run must not poll forever);
  // each run gets its own budget, and one that outlasts it says so and offers to look again.
  const [polls, setPolls] = useState(0);
  const gaveUp = waiting && polls >= MAX_POLLS;
  useEffect(() => {
    if (!waiting) {
      setPolls(0);
      return;
    }
    if (polls >= MAX_POLLS) return;
    const timer = setTimeout(() => {
      setPolls((n) => n + 1);
      void reload();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, data, reload, polls]);
  const lookAgain = () => {
    setPolls(0);
    void reload();
  };

  if (loading && !data) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', minHeight: 240 }}>
        <CircularProgress aria-label="Loading the monitor" />
      </Box>
    );
  }
  if (!data) {
    return (
      <Box sx={{ display: 'grid', gap: 2, justifyItems: 'start' }}>
        <Typography variant="h1" sx={{ fontSize: { xs: 26, md: 32 } }}>
          {domain}
        </Typography>
        <Alert severity="warning">{error === 'Monitor not found' ? `You have no monitor for ${domain}.` : error}</Alert>
        <Button component={RouterLink} to="/account/dashboard#monitors" variant="outlined">
          Back to your monitors
        </Button>
      </Box>
    );
  }

  const { monitor, latest, history } = data;
  // What the server, the browser's hydration and a chart whose code still loads show in its place.
  const gaugeFallback = latest && <Typography sx={{ fontSize: 34, fontWeight: 700 }}>{latest.healthScore}</Typography>;
  const chartFallback = (
    <Box sx={{ height: 240, display: 'grid', placeItems: 'center' }}>
      <CircularProgress size={24} aria-label="Loading the chart" />
    </Box>
  );
  const act = async (kind: 'check' | 'status' | 'delete') => {
    setBusy(kind);
    try {
      if (kind === 'check') {
        set(await recheckMonitor(domain));
        showToast({ severity: 'success', message: `Checked ${domain} again.`, durationMs: 3000 });
      } else if (kind === 'status') {
        const next = monitor.status === 'active' ? 'paused' : 'active';
        const updated = await setMonitorStatus(domain, next);
        set({ ...data, monitor: updated });
        showToast({ severity: 'info', message: next === 'paused' ? `Monitoring of ${domain} is paused.` : `Monitoring of ${domain} resumed.`, durationMs: 3000 });
      } else {
        await deleteMonitor(domain);
        showToast({ severity: 'success', message: `The monitor for ${domain} was deleted.`, durationMs: 3000 });
        navigate('/account/dashboard#monitors');
      }
    } catch (failure) {
      const message = failure instanceof ApiFailure && failure.status === 429 ? `${domain} was checked many times in a short time. ${failure.message}` : failureMessage(failure);
      showToast({ severity: 'error', message, durationMs: 5000 });
    } finally {
      setBusy(null);
      setConfirmDelete(false);
    }
  };

  return (
    <Box sx={{ display: 'grid', gap: 3 }} data-testid="monitor-page">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'flex-end' }}>
        <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
          <Button component={RouterLink} to="/account/dashboard#monitors" size="small" sx={{ px: 0, mb: 0.5 }}>
            ← Monitors
          </Button>
          <Typography variant="h1" sx={{ fontSize: { xs: 26, md: 32 }, overflowWrap: 'anywhere' }}>
            {monitor.domain}
          </Typography>
          <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mt: 0.75, color: 'text.secondary', fontSize: 14 }}>
            <Chip size="small" label={monitor.status === 'active' ? 'Active' : 'Paused'} color={monitor.status === 'active' ? 'success' : 'default'} data-testid="monitor-status" />
            {monitor.checking && <Chip size="small" icon={<CircularProgress size={12} />} label="Checking…" />}
            <span>
              {monitor.lastCheckedAt ? (
                <>
                  Last checked <LocalTime iso={monitor.lastCheckedAt} />
                </>
              ) : (
                'Not checked yet'
              )}
            </span>
          </Box>
        </Box>
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Button variant="contained" onClick={() => void act('check')} disabled={busy !== null || monitor.checking}>
            {busy === 'check' ? 'Checking…' : 'Re-check now'}
          </Button>
          <Button variant="outlined" onClick={() => void act('status')} disabled={busy !== null}>
            {monitor.status === 'active' ? 'Pause' : 'Resume'}
          </Button>
          <Button color="error" onClick={() => setConfirmDelete(true)} disabled={busy !== null}>
            Delete
          </Button>
        </Box>
      </Box>

      {gaveUp && (
        <Alert
          severity="warning"
          action={
            <Button color="inherit" size="small" onClick={lookAgain}>
              Look again
            </Button>
          }
        >
          The check of {monitor.domain} is taking longer than usual, so this page stopped updating by itself.
        </Alert>
      )}
      {!latest ? (
        !gaveUp && (
          <Alert severity="info" icon={<CircularProgress size={20} />}>
            The first check of {monitor.domain} is still running. This page updates by itself when it is done.
          </Alert>
        )
      ) : (
        <>
          <InboxPreviews domain={monitor.domain} logo={latest.logo} providers={latest.providers} />

          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: 'minmax(0, 2fr) minmax(0, 1fr)' }, alignItems: 'start' }}>
            <Paper component="section" variant="outlined" aria-labelledby="health-heading" sx={{ p: 2.5, borderRadius: 3, display: 'flex', gap: 2.5, flexWrap: 'wrap' }}>
              <Box sx={{ display: 'grid', justifyItems: 'center', alignContent: 'start', flex: '0 0 160px', mx: { xs: 'auto', sm: 0 } }}>
                <Typography id="health-heading" variant="h2" sx={{ fontSize: 16, fontWeight: 700 }}>
                  Health score
                </Typography>
                <Box
                  data-testid="health-score"
                  data-score={latest.healthScore}
                  aria-label={`Health score ${latest.healthScore} of 100`}
                  role="img"
                  sx={{ width: 160, height: 120, display: 'grid', placeItems: 'center' }}
                >
                  <BrowserOnly fallback={gaugeFallback}>
                    <HealthGauge score={latest.healthScore} />
                  </BrowserOnly>
                </Box>
                <Typography color="text.secondary" sx={{ fontSize: 13 }}>
                  out of 100
                </Typography>
              </Box>
              <Box sx={{ flex: '1 1 260px', minWidth: 0 }}>
                <Typography variant="h2" sx={{ fontSize: 16, fontWeight: 700, mb: 1 }}>
                  What to fix first
                </Typography>
                {/* Real findings first; hygiene (reporting, record style) only under its own heading (issue 32). */}
                <TopIssues issues={latest.topIssues.filter((issue) => !isHygiene({ id: issue.checkId }))} empty={nothingToFix(latest.groups)} />
                {latest.topIssues.some((issue) => isHygiene({ id: issue.checkId })) && (
                  <>
                    <Typography variant="h3" sx={{ fontSize: 15, fontWeight: 700, mt: 2, mb: 0.5 }}>
                      Hygiene: reporting and record style
                    </Typography>
                    <Typography sx={{ fontSize: 14, color: 'text.secondary', mb: 1 }}>These do not change the score’s band or whether your logo shows.</Typography>
                    <TopIssues issues={latest.topIssues.filter((issue) => isHygiene({ id: issue.checkId }))} testId="hygiene-issues" />
                  </>
                )}
              </Box>
            </Paper>
            <CertificateCardView certificate={latest.certificate} />
          </Box>

          <Paper component="section" variant="outlined" aria-labelledby="history-heading" sx={{ p: 2.5, borderRadius: 3 }} data-testid="monitor-history">
            <Typography id="history-heading" variant="h2" sx={{ fontSize: 20, fontWeight: 700 }}>
              History
            </Typography>
            <Typography color="text.secondary" sx={{ fontSize: 14, mb: 1 }}>
              The health score of each check; a dot marks a check that found record changes.
            </Typography>
            <Box sx={{ height: 240 }}>
              <BrowserOnly fallback={chartFallback}>
                <HistoryChart history={history} />
              </BrowserOnly>
            </Box>
            <Typography variant="h3" sx={{ fontSize: 16, fontWeight: 700, mt: 2, mb: 0.5 }}>
              Changes found by the last check
            </Typography>
            {latest.changes.length === 0 ? (
              <Typography color="text.secondary" sx={{ fontSize: 14 }} data-testid="monitor-changes">
                {history.length > 1 ? 'No record changed since the check before.' : 'This was the first check: changes show from the next one.'}
              </Typography>
            ) : (
              <Box component="ul" data-testid="monitor-changes" sx={{ m: 0, pl: 2.5, fontSize: 14, display: 'grid', gap: 0.75 }}>
                {latest.changes.map((change) => (
                  <li key={`${change.group}-${change.title}`}>
                    <strong>{change.title}</strong>
                    {(change.before || change.after) && (
                      <Box component="span" sx={{ color: 'text.secondary', overflowWrap: 'anywhere' }}>
                        {' '}
                        {change.before ?? 'none'} → {change.after ?? 'none'}
                      </Box>
                    )}
                  </li>
                ))}
              </Box>
            )}
          </Paper>

          <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', lg: 'minmax(0, 3fr) minmax(320px, 2fr)' }, alignItems: 'start' }}>
            <RecordGroups groups={latest.groups} />
            {/* On narrow screens the assistant comes before the long list of checks. */}
            <Box sx={{ order: { xs: -1, lg: 0 }, minWidth: 0 }}>
              <AssistantPanel domain={monitor.domain} />
            </Box>
          </Box>
          {latest.dkimSelectors.length > 0 && (
            <Typography color="text.secondary" sx={{ fontSize: 13 }}>
              DKIM selectors found: {latest.dkimSelectors.join(', ')}
            </Typography>
          )}
        </>
      )}

      <Dialog open={confirmDelete} onClose={() => busy === null && setConfirmDelete(false)} aria-labelledby="delete-monitor-title">
        <DialogTitle id="delete-monitor-title">Delete the monitor for {monitor.domain}?</DialogTitle>
        <DialogContent>
          <Typography>Its checks, history and assistant conversation are deleted too. Your DNS records are not touched.</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setConfirmDelete(false)} disabled={busy !== null}>
            Cancel
          </Button>
          <Button color="error" variant="contained" onClick={() => void act('delete')} disabled={busy !== null}>
            Delete monitor
          </Button>
        </DialogActions>
      </Dialog>
    </Box>
  );
}

export default MonitorPage;
