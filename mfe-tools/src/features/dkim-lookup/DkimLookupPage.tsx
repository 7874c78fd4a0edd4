import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ToolAnswer } from '@bimi/contracts/tools';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { ResultSection, ToolResult } from '../../components/ToolResult';
import { DKIM_SELECTOR_FIELD, DOMAIN_FIELD } from '../../lib/fields';
import { useToolRun } from '../../lib/useToolRun';
import { dkimKeysFrom } from './dkim-keys';

const FIELDS = [DOMAIN_FIELD, DKIM_SELECTOR_FIELD];

function KeySection({ answer }: { answer: ToolAnswer<'dkim'> }) {
  const { keys, tried } = dkimKeysFrom(answer.details);
  if (keys.length === 0 && tried.length === 0) return null;
  return (
    <ResultSection title={keys.length === 1 ? 'Key' : 'Keys'} testId="dkim-keys">
      {keys.length === 0 && <Typography color="text.secondary">No key was found at any selector tried.</Typography>}
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(auto-fill, minmax(240px, 1fr))' } }}>
        {keys.map((key) => (
          <Box key={key.selector} data-selector={key.selector} sx={{ border: 1, borderColor: key.usable ? 'divider' : 'error.main', borderRadius: 2, p: 2, bgcolor: 'background.paper' }}>
            <Typography sx={{ fontWeight: 700, overflowWrap: 'anywhere' }}>Selector {key.selector}</Typography>
            <Typography color={key.usable ? 'text.secondary' : 'error'} data-testid="dkim-key-summary" sx={{ overflowWrap: 'anywhere' }}>
              {key.summary}
            </Typography>
          </Box>
        ))}
      </Box>
      {tried.length > 1 && (
        <Typography color="text.secondary" sx={{ mt: 1.5, fontSize: 14 }}>
          Common selectors tried: {tried.join(', ')}.
        </Typography>
      )}
    </ResultSection>
  );
}

export default function DkimLookupPage({ route }: PageProps) {
  const run = useToolRun('dkim', FIELDS);
  return (
    <ToolPage
      title={route.title}
      lead="Find a domain's DKIM public key and check its type and size. Know the selector? Enter it. If not, the common selectors of the big mail services are tried."
      about={[
        {
          heading: 'What DKIM is',
          body: (
            <>
              <p>
                DKIM signs each message with a private key held by whoever sends your mail; receivers check the signature with the public key you publish at{' '}
                <code>selector._domainkey.yourdomain.com</code>, as <code>v=DKIM1; k=rsa; p=…</code>.
              </p>
              <p>
                The selector is in every signed message's <code>DKIM-Signature</code> header as <code>s=</code>: open a message's original source to find it. A key of 1024 bits is the
                minimum; 2048 is the standard today.
              </p>
            </>
          ),
        },
        {
          heading: 'Why it matters for BIMI',
          body: (
            <p>
              DKIM is the authentication that survives forwarding, so it is what keeps DMARC passing when your policy is at enforcement. A weak, revoked or missing key means mail that fails
              DMARC, and no logo beside it.
            </p>
          ),
        },
      ]}
    >
      <ToolForm label={route.title} run={run} submitLabel="Look up DKIM" />
      <ToolResult state={run.state} onRetry={run.retry} before={(answer) => <KeySection answer={answer} />} />
    </ToolPage>
  );
}
