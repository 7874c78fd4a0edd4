import type { PageProps } from '@bimi/ui/RouteTable';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { ToolResult } from '../../components/ToolResult';
import { NAME_FIELD } from '../../lib/fields';
import { useToolRun } from '../../lib/useToolRun';

const FIELDS = [NAME_FIELD];

export default function TxtCheckerPage({ route }: PageProps) {
  const run = useToolRun('txt', FIELDS);
  return (
    <ToolPage
      title={route.title}
      lead="See exactly which TXT records a DNS name publishes, as mail servers read them: useful right after you add or change a record."
      about={[
        {
          heading: 'What TXT records are',
          body: (
            <>
              <p>
                TXT records hold text that other systems read: SPF at your domain, DMARC at <code>_dmarc.</code>, DKIM keys at <code>selector._domainkey.</code>, BIMI at{' '}
                <code>default._bimi.</code>, and site-verification tokens.
              </p>
              <p>A long value is published as several strings of up to 255 characters; mail servers join them, and so does this checker.</p>
            </>
          ),
        },
        {
          heading: 'Why it matters for BIMI',
          body: (
            <p>
              BIMI depends on four TXT records being right at once. After an edit, check the exact name here: a record added at <code>_dmarc.example.com.example.com</code> by a DNS panel
              that appends the domain is a common reason a logo does not show.
            </p>
          ),
        },
      ]}
    >
      <ToolForm label={route.title} run={run} submitLabel="Look up TXT" />
      <ToolResult state={run.state} onRetry={run.retry} recordsTitle="TXT records" />
    </ToolPage>
  );
}
