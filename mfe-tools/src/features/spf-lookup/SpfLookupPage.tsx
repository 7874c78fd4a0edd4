import type { PageProps } from '@bimi/ui/RouteTable';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { ResultSection, ToolResult } from '../../components/ToolResult';
import { DOMAIN_FIELD } from '../../lib/fields';
import { useToolRun } from '../../lib/useToolRun';
import { SENDER_FIELD, SENDING_IP_FIELD } from './evaluation-fields';
import { spfTreeFrom } from './spf-tree';
import { SpfTree } from './SpfTree';
import { SpfFlatteningAdvice } from './SpfFlatteningAdvice';
import { SpfVerdict } from './SpfVerdict';

const FIELDS = [DOMAIN_FIELD, SENDING_IP_FIELD, SENDER_FIELD];

export default function SpfLookupPage({ route }: PageProps) {
  const run = useToolRun('spf', FIELDS);
  return (
    <ToolPage
      title={route.title}
      lead="Expand a domain's SPF record: every include and redirect it pulls in, and how many of the ten allowed DNS lookups it uses. Give a sending server's IP address to see whether its mail would pass."
      about={[
        {
          heading: 'What SPF is',
          body: (
            <>
              <p>
                SPF is a TXT record at your domain, starting <code>v=spf1</code>, listing the servers allowed to send mail as your domain: addresses (<code>ip4:</code>, <code>ip6:</code>),
                your own hosts (<code>a</code>, <code>mx</code>) and the services you use (<code>include:_spf.google.com</code>). It ends with <code>-all</code> or <code>~all</code> for
                everyone else.
              </p>
              <p>
                Receivers stop after 10 DNS lookups: every <code>include</code>, <code>a</code>, <code>mx</code>, <code>exists</code> and <code>redirect</code> counts, including those inside
                the includes. Past ten, SPF fails for all your mail.
              </p>
            </>
          ),
        },
        {
          heading: 'Would my mail pass?',
          body: (
            <p>
              With a sending server&apos;s IP address (and optionally the MAIL FROM address), the lookup also runs SPF the way a receiving mail server does (RFC 7208 check_host): macros
              expanded, includes and redirects followed, and the answer one of pass, fail, softfail, neutral, none, permerror or temperror, with the term that decided it and the DNS lookups
              it took.
            </p>
          ),
        },
        {
          heading: 'Why it matters for BIMI',
          body: (
            <p>
              DMARC passes when SPF or DKIM passes for your domain. A broken SPF record leaves DKIM as the only way to pass, and once your DMARC policy is at enforcement (which BIMI
              requires) any mail that fails both is quarantined or rejected, and shows no logo.
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
          const { evaluation, flattening } = answer.details;
          return (
            <>
              {evaluation && (
                <ResultSection title="Would this mail pass?" testId="spf-evaluation-section">
                  <SpfVerdict evaluation={evaluation} />
                </ResultSection>
              )}
              {tree.root && (
                <ResultSection title="Include and redirect tree" testId="spf-tree-section">
                  <SpfTree {...tree} root={tree.root} />
                </ResultSection>
              )}
              {flattening && (
                <ResultSection title="Over the limit: what flattening would give" testId="spf-flattening-section">
                  <SpfFlatteningAdvice flattening={flattening} />
                </ResultSection>
              )}
            </>
          );
        }}
      />
    </ToolPage>
  );
}
