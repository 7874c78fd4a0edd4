import type { PageProps } from '@bimi/ui/RouteTable';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { TagTable } from '../../components/TagTable';
import { RfcComparison } from './RfcComparison';
import { ResultSection, ToolResult } from '../../components/ToolResult';
import { DOMAIN_FIELD } from '../../lib/fields';
import { useToolRun } from '../../lib/useToolRun';

const FIELDS = [DOMAIN_FIELD];

/** What each DMARC tag does (RFC 7489 §6.3), in the words a domain owner needs. */
const DMARC_TAGS: Record<string, string> = {
  v: 'Version: always DMARC1 (in capitals), and it must be the very first thing in the record.',
  p: 'Policy for mail that fails DMARC: none (deliver and report), quarantine (spam folder) or reject (refuse). BIMI needs quarantine or reject.',
  sp: 'Policy for subdomains; when absent they follow p. BIMI needs it not to be none.',
  np: 'Policy for subdomains that do not exist, which spammers like to use.',
  pct: 'Obsolete (RFC 9989 removed it; use t=y to test): share of failing mail the policy applies to, 0–100, for receivers that still follow RFC 7489. BIMI needs 100 (or no pct at all).',
  rua: 'Where receivers send daily aggregate reports: who sends mail as your domain, and whether it passes.',
  ruf: 'Where receivers send failure reports about single messages; few receivers send them.',
  adkim: 'DKIM alignment: r (relaxed, a subdomain may sign) or s (strict, exact domain).',
  aspf: 'SPF alignment: r (relaxed) or s (strict).',
  fo: 'When to send failure reports: 0 (all checks fail), 1 (any check fails), d (DKIM fails), s (SPF fails).',
  rf: 'Obsolete (RFC 9989 removed it): the format of failure reports; afrf was the only one.',
  ri: 'Obsolete (RFC 9989 removed it): requested seconds between aggregate reports; receivers send daily.',
  t: 'Testing mode (t=y): the policy is applied one step softer. BIMI needs it off.',
  psd: 'Whether this domain is a public suffix domain (for registries, not companies).',
};

export default function DmarcInspectorPage({ route }: PageProps) {
  const run = useToolRun('dmarc', FIELDS);
  return (
    <ToolPage
      title={route.title}
      lead="Look up a domain's DMARC record, see what each tag does, and find out whether the policy is strict enough for BIMI logos to show."
      about={[
        {
          heading: 'What DMARC is',
          body: (
            <>
              <p>
                DMARC is a TXT record at <code>_dmarc.yourdomain.com</code> that tells mailboxes what to do with mail that claims to come from your domain but fails SPF and DKIM: deliver it
                (<code>p=none</code>), send it to spam (<code>p=quarantine</code>) or refuse it (<code>p=reject</code>).
              </p>
              <p>
                The <code>rua</code> tag names where mailboxes send daily aggregate reports, so you can see who sends mail as you before you tighten the policy.
              </p>
            </>
          ),
        },
        {
          heading: 'Why BIMI needs it',
          body: (
            <>
              <p>
                Mailboxes only show a BIMI logo when the domain is protected against spoofing: a DMARC policy of <code>quarantine</code> or <code>reject</code>, applied to all mail (
                <code>pct=100</code>), on the domain and its organizational domain, with no <code>sp=none</code> for subdomains.
              </p>
              <p>
                A domain at <code>p=none</code> is monitored, not protected: start there, read the reports, then move to enforcement.
              </p>
            </>
          ),
        },
      ]}
    >
      <ToolForm label={route.title} run={run} submitLabel="Inspect DMARC" />
      <ToolResult
        state={run.state}
        onRetry={run.retry}
        after={(answer) => {
          const tags = answer.details.record?.tags ?? [];
          const { differences } = answer.details;
          return (
            <>
              {tags.length > 0 && (
                <ResultSection title="The record, tag by tag">
                  <TagTable tags={tags} meanings={DMARC_TAGS} />
                </ResultSection>
              )}
              {differences && (
                <ResultSection title="RFC 7489 and RFC 9989" testId="dmarc-rfc-section">
                  <RfcComparison differences={differences} />
                </ResultSection>
              )}
            </>
          );
        }}
      />
    </ToolPage>
  );
}
