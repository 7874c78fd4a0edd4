import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { summarize, type Check, type CheckStatus } from '@bimi/contracts/tools';
import { StatusIcon } from './StatusIcon';
import { STATUS_COLOR } from './status';

const HEADLINE: Record<CheckStatus, string> = {
  pass: 'All checks passed',
  warn: 'Works, with warnings',
  fail: 'Problems found',
  info: 'Nothing to grade',
};

function countsOf(checks: readonly Check[]): string {
  const fails = checks.filter((check) => check.status === 'fail').length;
  const warns = checks.filter((check) => check.status === 'warn').length;
  const passes = checks.filter((check) => check.status === 'pass').length;
  const parts = [
    fails && `${fails} failed`,
    warns && `${warns} warning${warns === 1 ? '' : 's'}`,
    passes && `${passes} passed`,
  ].filter(Boolean);
  return parts.length ? parts.join(', ') : `${checks.length} finding${checks.length === 1 ? '' : 's'}`;
}

/** The answer in one line: the worst status among the checks, and the score when the tool grades. */
export function VerdictBanner({ subject, checks, score }: { subject: string; checks: readonly Check[]; score?: number | undefined }) {
  const verdict = summarize(checks);
  const color = STATUS_COLOR[verdict];
  return (
    <Box
      role="status"
      data-testid="verdict"
      data-status={verdict}
      sx={{
        display: 'flex',
        gap: 2,
        alignItems: 'center',
        flexWrap: 'wrap',
        p: { xs: 2, md: 2.5 },
        borderRadius: 2,
        border: 1,
        borderColor: `${color}.main`,
        bgcolor: (theme) => `color-mix(in srgb, ${theme.palette[color].main} 8%, white)`,
      }}
    >
      <StatusIcon status={verdict} sx={{ fontSize: 40 }} />
      <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
        <Typography variant="h2" component="p" sx={{ fontSize: { xs: 20, md: 24 } }}>
          {HEADLINE[verdict]}
        </Typography>
        <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {subject} · {countsOf(checks)}
        </Typography>
      </Box>
      {score !== undefined && (
        <Box sx={{ flex: '0 0 160px' }} data-testid="score">
          <Typography sx={{ fontWeight: 700, fontSize: 28, lineHeight: 1 }}>
            {Math.round(score)}
            <Typography component="span" color="text.secondary" sx={{ fontSize: 16, fontWeight: 500 }}>
              {' '}
              / 100
            </Typography>
          </Typography>
          <LinearProgress
            variant="determinate"
            value={Math.max(0, Math.min(100, score))}
            color={color}
            aria-label="Score"
            sx={{ mt: 1, height: 8, borderRadius: 4 }}
          />
        </Box>
      )}
    </Box>
  );
}
