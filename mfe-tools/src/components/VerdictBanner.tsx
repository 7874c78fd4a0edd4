import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { summarize, type Check, type CheckStatus, type Verdict } from '@bimi/contracts/tools';
import { checkCounts } from '@bimi/email-auth/verdict';
import { StatusIcon } from './StatusIcon';
import { STATUS_COLOR } from './status';

const HEADLINE: Record<CheckStatus, string> = {
  pass: 'All checks passed',
  warn: 'Works, with warnings',
  fail: 'Problems found',
  info: 'Nothing to grade',
  absent: 'Not found',
  unreachable: 'Could not check. Try again',
};

/**
 * The answer in one line. With the server's verdict (@bimi/email-auth `verdictOf`): the question,
 * its answer and the score from the same band; without one (the logo check of the BIMI generator),
 * the worst status among the checks.
 */
export function VerdictBanner({ subject, checks, score, answer }: { subject: string; checks: readonly Check[]; score?: number | undefined; answer?: Verdict | undefined }) {
  const status: CheckStatus = answer ? (answer.status === 'nonexistent' ? 'absent' : answer.status) : summarize(checks);
  const verdict = answer?.status ?? status;
  const color = STATUS_COLOR[status];
  const shownScore = answer ? answer.score : score;
  // One rule for the counts (@bimi/email-auth `checkCounts`): the checks listed, hygiene under its own heading.
  const counts = checkCounts(checks, answer?.hygiene ?? []);
  const hygiene = answer ? counts.hygiene : 0;
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
      <StatusIcon status={status} sx={{ fontSize: 40 }} />
      <Box sx={{ flex: '1 1 220px', minWidth: 0 }}>
        {answer && (
          <Typography color="text.secondary" sx={{ fontSize: 14 }} data-testid="verdict-question">
            {answer.question}
          </Typography>
        )}
        <Typography variant="h2" component="p" sx={{ fontSize: { xs: 20, md: 24 } }} data-testid="verdict-headline">
          {answer?.headline ?? HEADLINE[status]}
        </Typography>
        <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
          {subject} · {counts.words}
        </Typography>
        {hygiene > 0 && (
          <Typography sx={{ fontSize: 14, mt: 0.5 }} data-testid="verdict-hygiene">
            Hygiene: {hygiene} finding{hygiene === 1 ? '' : 's'} about reporting or record style, listed under Hygiene. They do not change the answer.
          </Typography>
        )}
      </Box>
      {shownScore !== undefined && (
        <Box sx={{ flex: '0 0 160px' }} data-testid="score">
          <Typography sx={{ fontWeight: 700, fontSize: 28, lineHeight: 1 }}>
            {Math.round(shownScore)}
            <Typography component="span" color="text.secondary" sx={{ fontSize: 16, fontWeight: 500 }}>
              {' '}
              / 100
            </Typography>
          </Typography>
          <LinearProgress variant="determinate" value={Math.max(0, Math.min(100, shownScore))} color={color} aria-label="Score" sx={{ mt: 1, height: 8, borderRadius: 4 }} />
        </Box>
      )}
    </Box>
  );
}
