import type { PageProps } from '@bimi/ui/RouteTable';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { ToolResult } from '../../components/ToolResult';
import { DOMAIN_FIELD } from '../../lib/fields';
import { useToolRun } from '../../lib/useToolRun';

const FIELDS = [DOMAIN_FIELD];

export default function DomainRecordsPage({ route }: PageProps) {
  const run = useToolRun('records', FIELDS);
  return (
    <ToolPage
      title={route.title}
      lead="Every record that decides how mail from a domain is received, in one lookup: MX, SPF, DMARC, BIMI and the addresses."
      about={[
        {
          heading: 'What is looked up',
          body: (
            <p>
              The domain's MX records (which servers receive its mail), its SPF record (which servers may send it), the DMARC record at <code>_dmarc</code>, the BIMI record at{' '}
              <code>default._bimi</code>, and its A and AAAA addresses.
            </p>
          ),
        },
        {
          heading: 'Why it matters for BIMI',
          body: <p>A logo shows only when all of these line up. This overview is the quickest way to spot the missing piece; then open the matching checker for the details.</p>,
        },
      ]}
    >
      <ToolForm label={route.title} run={run} submitLabel="Look up records" />
      <ToolResult state={run.state} onRetry={run.retry} />
    </ToolPage>
  );
}
