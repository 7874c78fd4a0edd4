import type { PageProps } from '@bimi/ui/RouteTable';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { ResultSection, ToolResult } from '../../components/ToolResult';
import { DOMAIN_FIELD } from '../../lib/fields';
import { useToolRun } from '../../lib/useToolRun';
import { spfTreeFrom } from './spf-tree';
import { SpfTree } from './SpfTree';

const FIELDS = [DOMAIN_FIELD];

export default function SpfLookupPage({ route }: PageProps) {
  const run = useToolRun('spf', FIELDS);
  return (
    <ToolPage
      title={route.title}
      lead="Expand a domain's SPF record: every include and redirect it pulls in, and how many of the ten allowed DNS lookups it uses."
      about={[
        {
          heading: 'What SPF is',
          body: (
            <>
              <p>
                SPF is a TXT record at your domain, starting <code>v=spf1</code>, listing the servers allowed to send mail as your domain: addresses (
                <code>ip4:</code>, <code>ip6:</code>), your own hosts (<code>a</code>, <code>mx</code>) and the services you use (
                <code>include:_spf.google.com</code>). It ends with <code>-all</code> or <code>~all</code> for everyone else.
              </p>
              <p>
                Receivers stop after 10 DNS lookups: every <code>include</code>, <code>a</code>, <code>mx</code>, <code>exists</code> and <code>redirect</code>{' '}
                counts, including those inside the includes. Past ten, SPF fails for all your mail.
              </p>
            </>
          ),
        },
        {
          heading: 'Why it matters for BIMI',
          body: (
            <p>
              DMARC passes when SPF or DKIM passes for your domain. A broken SPF record leaves DKIM as the only way to pass, and once your DMARC policy is
              at enforcement (which BIMI requires) any mail that fails both is quarantined or rejected, and shows no logo.
            </p>
          ),
        },
      ]}
    >
      <ToolForm label={route.title} run={run} submitLabel="Look up SPF" />
      <ToolResult
        state={run.state}
        onRetry={run.retry}
        before={(answer) => {
          const tree = spfTreeFrom(answer.details);
          return tree.root ? (
            <ResultSection title="Include and redirect tree" testId="spf-tree-section">
              <SpfTree {...tree} root={tree.root} />
            </ResultSection>
          ) : null;
        }}
      />
    </ToolPage>
  );
}
