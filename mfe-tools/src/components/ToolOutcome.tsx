import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import type { ToolName } from '@bimi/contracts/tools';
import { nextSteps } from '../lib/next-steps';
import { CheckList } from './CheckList';
import { NextSteps } from './NextSteps';
import { RecordsTable } from './RecordsTable';
import { ResultSection } from './ResultSection';
import type { ToolResultProps } from './ToolResult';
import { VerdictBanner } from './VerdictBanner';

function describeQuery(query: Readonly<Record<string, string>>): string {
  return Object.values(query).filter(Boolean).join(' · ');
}

/** What ToolResult shows once a check has started: progress, the failure with a Retry, or the answer. */
export function ToolOutcome<Tool extends ToolName>({ state, onRetry, before, after, recordsTitle = 'Records found' }: ToolResultProps<Tool>) {
  if (state.status === 'idle') return null;
  if (state.status === 'running') {
    return (
      <Box role="status" aria-busy="true" data-testid="tool-progress" sx={{ mt: 4 }}>
        <Typography sx={{ mb: 1 }}>Checking {describeQuery(state.query)}… looking up DNS records.</Typography>
        <LinearProgress aria-label="Check in progress" />
      </Box>
    );
  }
  if (state.status === 'failed') {
    return (
      <Alert
        severity={state.error.kind === 'rate-limited' ? 'warning' : 'error'}
        data-testid="tool-error"
        data-error-kind={state.error.kind}
        sx={{ mt: 4, alignItems: 'center' }}
        action={
          <Button color="inherit" variant="outlined" size="small" onClick={onRetry}>
            Retry
          </Button>
        }
      >
        {state.error.message}
      </Alert>
    );
  }
  const { answer } = state;
  const hygieneIds = new Set(answer.verdict?.hygiene ?? []);
  const hygiene = answer.checks.filter((check) => hygieneIds.has(check.id));
  const checks = answer.checks.filter((check) => !hygieneIds.has(check.id));
  // At phone width the checks come right after the headline and its next steps, before what the
  // tool adds (inbox previews, the key): one column puts the previews' height above the failures.
  return (
    <Box data-testid="tool-answer" sx={{ mt: 4, display: 'flex', flexDirection: 'column' }}>
      <VerdictBanner subject={describeQuery(state.query)} checks={answer.checks} score={answer.score} answer={answer.verdict} />
      <NextSteps steps={nextSteps(answer)} />
      <Box sx={{ order: { xs: 2, md: 1 } }}>{before?.(answer)}</Box>
      <Box sx={{ order: { xs: 1, md: 2 } }}>
        <ResultSection title="Checks" testId="checks-section">
          <CheckList checks={checks} />
        </ResultSection>
        {hygiene.length > 0 && (
          <ResultSection title="Hygiene: reporting and record style" testId="hygiene-section">
            <CheckList checks={hygiene} />
          </ResultSection>
        )}
      </Box>
      <Box sx={{ order: 3 }}>
        {after?.(answer)}
        <ResultSection title={recordsTitle}>
          <RecordsTable records={answer.records} />
        </ResultSection>
      </Box>
    </Box>
  );
}
