import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { CheckStatus } from '@bimi/contracts/tools';
import type { SpfEvaluation } from '@bimi/contracts/tools';
import { SPF_LOOKUP_LIMIT, SPF_VOID_LOOKUP_LIMIT } from '@bimi/email-auth/spf-limits';
import { MONOSPACE } from '../../components/RecordsTable';
import { StatusIcon } from '../../components/StatusIcon';
import { STATUS_COLOR } from '../../components/status';

type SpfResult = SpfEvaluation['result'];

/** How each RFC 7208 result reads for the person who asked, and the colour it takes. */
const RESULT: Record<SpfResult, { status: CheckStatus; headline: string; meaning: string }> = {
  pass: { status: 'pass', headline: 'Pass', meaning: 'The domain authorizes this server: receivers count SPF as passed.' },
  fail: { status: 'fail', headline: 'Fail', meaning: 'The domain says this server may not send its mail: receivers may reject it.' },
  softfail: { status: 'warn', headline: 'Soft fail', meaning: 'The domain says this server is probably not allowed: receivers usually accept the mail but mark it suspicious.' },
  neutral: { status: 'info', headline: 'Neutral', meaning: 'The domain says nothing about this server: SPF neither passes nor fails.' },
  none: { status: 'info', headline: 'None', meaning: 'There is no SPF policy to evaluate.' },
  permerror: { status: 'fail', headline: 'Permanent error', meaning: 'The SPF record is broken, so receivers cannot evaluate it; with DMARC this counts as a failure.' },
  temperror: { status: 'warn', headline: 'Temporary error', meaning: 'A DNS lookup failed; receivers defer the mail or treat SPF as failed until the name servers answer.' },
};

/**
 * check_host()'s answer for one sending server: the verdict, the term that decided it, the lookups
 * it took and each step, as a receiving mail server would evaluate it (RFC 7208).
 */
export function SpfVerdict({ evaluation }: { evaluation: SpfEvaluation }) {
  const shown = RESULT[evaluation.result];
  const color = STATUS_COLOR[shown.status];
  return (
    <Box
      data-testid="spf-evaluation"
      data-result={evaluation.result}
      sx={{ border: 1, borderColor: `${color}.main`, borderRadius: 2, p: { xs: 2, md: 2.5 }, bgcolor: (theme) => `color-mix(in srgb, ${theme.palette[color].main} 6%, white)` }}
    >
      <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
        <StatusIcon status={shown.status} sx={{ fontSize: 36 }} />
        <Box sx={{ flex: '1 1 240px', minWidth: 0 }}>
          <Typography variant="h2" component="p" sx={{ fontSize: { xs: 20, md: 24 } }} data-testid="spf-evaluation-result">
            SPF {shown.headline.toLowerCase()}
            {shown.headline.toLowerCase() === evaluation.result ? '' : ` (${evaluation.result})`}
          </Typography>
          <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            Mail from <strong>{evaluation.ip}</strong> with sender <strong>{evaluation.sender}</strong> for {evaluation.domain}. {shown.meaning}
          </Typography>
        </Box>
      </Box>
      <Box
        component="dl"
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: '1fr', sm: 'max-content 1fr' },
          columnGap: 2,
          rowGap: 0.5,
          mt: 2,
          mb: 0,
          '& dt': { fontWeight: 600 },
          '& dd': { m: 0, minWidth: 0, overflowWrap: 'anywhere' },
        }}
      >
        <dt>Matched term</dt>
        <dd data-testid="spf-evaluation-term">
          {evaluation.matched ? (
            <>
              <Box component="code" sx={{ fontFamily: MONOSPACE }}>
                {evaluation.matched.term}
              </Box>{' '}
              in the record of {evaluation.matched.domain}
            </>
          ) : (
            'none'
          )}
        </dd>
        <dt>DNS lookups</dt>
        <dd data-testid="spf-evaluation-lookups">
          {evaluation.lookups} of {SPF_LOOKUP_LIMIT}
          {evaluation.voidLookups > 0 ? `, ${evaluation.voidLookups} of ${SPF_VOID_LOOKUP_LIMIT} void` : ''}
        </dd>
        <dt>Why</dt>
        <dd>{evaluation.reason}</dd>
        {evaluation.explanation && (
          <>
            <dt>Domain&apos;s explanation</dt>
            <dd data-testid="spf-evaluation-explanation">{evaluation.explanation}</dd>
          </>
        )}
      </Box>
      {evaluation.trace.length > 0 && (
        <Box component="details" sx={{ mt: 2 }}>
          <Box component="summary" sx={{ cursor: 'pointer', fontWeight: 600 }}>
            Each step ({evaluation.trace.length})
          </Box>
          <Box component="ol" sx={{ m: 0, mt: 1, pl: 3, display: 'grid', gap: 0.5 }}>
            {evaluation.trace.map((step, index) => (
              <Box component="li" key={`${step.domain}-${step.term}-${index}`} sx={{ ml: Math.min(step.depth, 6) * 2, overflowWrap: 'anywhere' }}>
                <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: 14 }}>
                  {step.term}
                </Box>{' '}
                <Typography component="span" color="text.secondary" sx={{ fontSize: 14 }}>
                  in {step.domain}
                  {step.target ? ` → ${step.target}` : ''}: {step.outcome}
                  {step.note ? ` (${step.note})` : ''}
                </Typography>
              </Box>
            ))}
          </Box>
        </Box>
      )}
    </Box>
  );
}
