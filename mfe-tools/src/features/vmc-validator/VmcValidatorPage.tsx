import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import type { ToolAnswer, VmcUpload } from '@bimi/contracts/tools';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CertificateDetails } from '../../components/CertificateDetails';
import { InboxPreview } from '../../components/InboxPreview';
import { ToolForm } from '../../components/ToolForm';
import { ToolPage } from '../../components/ToolPage';
import { ResultSection, ToolResult } from '../../components/ToolResult';
import { ToolRequestError, validateUploadedVmc } from '../../lib/api';
import { safeLogoUrl } from '../../lib/certificate';
import { CERTIFICATE_URL_FIELD, DOMAIN_FIELD } from '../../lib/fields';
import { useToolRun, type ToolRunState } from '../../lib/useToolRun';
import { CertificateUpload } from './CertificateUpload';

const DOMAIN_FIELDS = [DOMAIN_FIELD];
const URL_FIELDS = [CERTIFICATE_URL_FIELD];
type Mode = 'domain' | 'url' | 'upload';

function CertificateSections({ answer }: { answer: ToolAnswer<'vmc'> }) {
  const certificate = answer.details?.certificate;
  const logo = safeLogoUrl(certificate?.logoDataUrl);
  return (
    <>
      <ResultSection title="Certificate" testId="certificate-section">
        {certificate ? <CertificateDetails certificate={certificate} /> : <Typography color="text.secondary">The certificate could not be read; the checks above say why.</Typography>}
      </ResultSection>
      <ResultSection title="In the inbox" testId="inbox-section">
        {!logo && (
          <Typography color="text.secondary" sx={{ mb: 1.5 }}>
            The certificate carries no logo the page could show.
          </Typography>
        )}
        <InboxPreview logoUrl={logo} sender={certificate?.organization ?? answer.query['domain'] ?? 'Your brand'} />
      </ResultSection>
    </>
  );
}

/** The upload's own run: not in the URL (a file cannot be shared by link), retried with the same text. */
function useUploadRun() {
  const [state, setState] = useState<ToolRunState<'vmc'>>({ status: 'idle' });
  const last = useRef<{ upload: VmcUpload; fileName: string }>(undefined);
  const controller = useRef<AbortController>(undefined);
  useEffect(() => () => controller.current?.abort(), []);

  const send = useCallback(async (upload: VmcUpload, fileName: string) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    last.current = { upload, fileName };
    const query: Record<string, string> = upload.domain ? { file: fileName, domain: upload.domain } : { file: fileName };
    setState({ status: 'running', query });
    try {
      const answer = await validateUploadedVmc(upload, { signal: current.signal });
      setState({ status: 'done', query, answer });
    } catch (error) {
      if (current.signal.aborted) return;
      setState({ status: 'failed', query, error: error instanceof ToolRequestError ? error : new ToolRequestError('network', 'The check could not run. Please try again.') });
    }
  }, []);
  const retry = useCallback(() => {
    if (last.current) void send(last.current.upload, last.current.fileName);
  }, [send]);
  return { state, send, retry };
}

export default function VmcValidatorPage({ route }: PageProps) {
  const byDomain = useToolRun('vmc', DOMAIN_FIELDS);
  const byUrl = useToolRun('vmc', URL_FIELDS);
  const upload = useUploadRun();
  // The URL decides the tab a shared link opens on; the upload tab is only ever chosen by hand.
  // From the router, not window: the page also renders on the server.
  const [searchParams] = useSearchParams();
  const [mode, setMode] = useState<Mode>(() => (searchParams.has('url') ? 'url' : 'domain'));
  const run = mode === 'domain' ? byDomain : mode === 'url' ? byUrl : undefined;

  return (
    <ToolPage
      title={route.title}
      lead="Validate a Verified Mark Certificate (VMC) or Common Mark Certificate (CMC): its chain to a trusted issuer, its dates, the domains it names and the logo it carries."
      about={[
        {
          heading: 'What a mark certificate is',
          body: (
            <>
              <p>
                A VMC or CMC is an X.509 certificate from an authorized issuer (such as DigiCert) that binds your logo to your organization and your domains. A VMC rests on a registered
                trademark; a CMC on a logo you have used publicly for at least a year.
              </p>
              <p>
                The logo itself is embedded in the certificate, so mailboxes can be sure the SVG at your BIMI record's <code>l=</code> is the one that was verified.
              </p>
            </>
          ),
        },
        {
          heading: 'Why BIMI needs it',
          body: (
            <>
              <p>
                Gmail and Apple Mail show a BIMI logo only with a valid mark certificate named in the record's <code>a=</code> tag. An expired certificate, a chain that does not reach a
                trusted root, or a domain missing from its names, and the logo silently disappears.
              </p>
              <p>Check by domain (follows the BIMI record), by the certificate's address, or upload the .pem file your issuer sent before you publish it.</p>
            </>
          ),
        },
      ]}
    >
      <Tabs
        value={mode}
        onChange={(_event, next: Mode) => setMode(next)}
        aria-label="How to find the certificate"
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ mt: 3, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="domain" label="By domain" />
        <Tab value="url" label="By address" />
        <Tab value="upload" label="Upload a file" />
      </Tabs>
      {run ? (
        <>
          <ToolForm key={mode} label={`${route.title}: ${mode === 'domain' ? 'by domain' : 'by certificate address'}`} run={run} submitLabel="Validate certificate" />
          <ToolResult state={run.state} onRetry={run.retry} after={(answer) => <CertificateSections answer={answer} />} recordsTitle="Records and files" />
        </>
      ) : (
        <>
          <CertificateUpload busy={upload.state.status === 'running'} onPem={(file, fileName) => void upload.send(file, fileName)} />
          <ToolResult state={upload.state} onRetry={upload.retry} after={(answer) => <CertificateSections answer={answer} />} recordsTitle="Records and files" />
        </>
      )}
    </ToolPage>
  );
}
