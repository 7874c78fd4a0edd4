import Typography from '@mui/material/Typography';
import type { BimiDetails, ToolAnswer } from '@bimi/contracts/tools';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CertificateDetails } from '../../components/CertificateDetails';
import { InboxPreview } from '../../components/InboxPreview';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { ResultSection, ToolResult } from '../../components/ToolResult';
import { inboxLogo } from '../../lib/certificate';
import { BIMI_SELECTOR_FIELD, DOMAIN_FIELD } from '../../lib/fields';
import { useToolRun } from '../../lib/useToolRun';

const FIELDS = [DOMAIN_FIELD, BIMI_SELECTOR_FIELD];

/** The certificate at the record's a=, when it could be read as one (otherwise the answer holds its address alone). */
function readCertificate({ certificate }: BimiDetails) {
  return certificate && 'fingerprint' in certificate ? certificate : undefined;
}

function InboxSection({ answer }: { answer: ToolAnswer<'bimi'> }) {
  const certificate = readCertificate(answer.details);
  const logo = inboxLogo(answer.details.logo?.dataUrl, certificate);
  return (
    <ResultSection title="In the inbox" testId="inbox-section">
      {!logo && (
        <Typography color="text.secondary" sx={{ mb: 1.5 }}>
          No logo could be read, so mailboxes show an initial instead. The checks below say why.
        </Typography>
      )}
      <InboxPreview logoUrl={logo} sender={certificate?.organization ?? answer.query['domain'] ?? 'Your brand'} />
    </ResultSection>
  );
}

function CertificateSection({ answer }: { answer: ToolAnswer<'bimi'> }) {
  const certificate = readCertificate(answer.details);
  if (!certificate) return null;
  return (
    <ResultSection title="Mark certificate" testId="certificate-section">
      <CertificateDetails certificate={certificate} />
    </ResultSection>
  );
}

export default function BimiCheckerPage({ route }: PageProps) {
  const run = useToolRun('bimi', FIELDS);
  return (
    <ToolPage
      title={route.title}
      lead="Check a domain's BIMI record, its SVG logo and its mark certificate, and see how the logo will look beside your messages in the inbox."
      about={[
        {
          heading: 'What BIMI is',
          body: (
            <>
              <p>
                BIMI (Brand Indicators for Message Identification) is a TXT record at <code>default._bimi.yourdomain.com</code>, such as{' '}
                <code>v=BIMI1; l=https://example.com/logo.svg; a=https://example.com/vmc.pem</code>. It points mailboxes at your logo (<code>l=</code>) and at the mark certificate that
                proves it is yours (<code>a=</code>).
              </p>
              <p>Gmail, Apple Mail and Yahoo then show that logo beside authenticated messages from your domain.</p>
            </>
          ),
        },
        {
          heading: 'What has to be right',
          body: (
            <>
              <p>
                A DMARC policy at enforcement (<code>quarantine</code> or <code>reject</code>); the logo as an SVG Tiny Portable/Secure file, square, served over HTTPS; and a Verified or
                Common Mark Certificate whose embedded logo is the same file.
              </p>
              <p>The preview shows your logo cropped round and square, on light and dark backgrounds: a logo with its own solid background reads best in both.</p>
            </>
          ),
        },
      ]}
    >
      <ToolForm label={route.title} run={run} submitLabel="Check BIMI" />
      <ToolResult state={run.state} onRetry={run.retry} before={(answer) => <InboxSection answer={answer} />} after={(answer) => <CertificateSection answer={answer} />} />
    </ToolPage>
  );
}
