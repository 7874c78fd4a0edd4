import type { PageProps } from '@bimi/ui/RouteTable';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { ToolResult } from '../../components/ToolResult';
import { NAME_FIELD } from '../../lib/fields';
import { useToolRun } from '../../lib/useToolRun';

const FIELDS = [{ ...NAME_FIELD, placeholder: 's1._domainkey.example.com' }];

export default function CnameCheckerPage({ route }: PageProps) {
  const run = useToolRun('cname', FIELDS);
  return (
    <ToolPage
      title={route.title}
      lead="Follow a CNAME record to where it points, one step at a time, and see whether the target answers."
      about={[
        {
          heading: 'What a CNAME is',
          body: (
            <p>
              A CNAME makes one name an alias of another: lookups for the alias are answered from the target. A name with a CNAME can hold no other records, so a CNAME at your bare domain
              breaks its MX and SPF.
            </p>
          ),
        },
        {
          heading: 'Why it matters for BIMI',
          body: (
            <p>
              Mail services often ask you to publish DKIM keys and BIMI records as CNAMEs to their own names (for example <code>s1._domainkey.example.com</code> →{' '}
              <code>s1.domainkey.u123.wl.sendgrid.net</code>), so they can rotate keys for you. If the target is missing, mailboxes see no key and no logo.
            </p>
          ),
        },
      ]}
    >
      <ToolForm label={route.title} run={run} submitLabel="Follow CNAME" />
      <ToolResult state={run.state} onRetry={run.retry} recordsTitle="CNAME chain" />
    </ToolPage>
  );
}
