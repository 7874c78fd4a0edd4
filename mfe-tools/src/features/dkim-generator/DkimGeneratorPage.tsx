import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import { buildDkimRecord } from '@bimi/email-auth/dkim';
import type { PageProps } from '@bimi/ui/RouteTable';
import { GeneratedRecord } from '../../components/GeneratedRecord';
import { TextInput } from '../../components/TextInput';
import { ToolPage } from '../../components/ToolPage';
import { DKIM_KEY_BITS, generateDkimKeyPair, pemDownloadUrl, type DkimKeyPair } from './keys';

type KeyState = { status: 'none' } | { status: 'generating' } | { status: 'ready'; pair: DkimKeyPair } | { status: 'failed'; message: string };

export default function DkimGeneratorPage({ route }: PageProps) {
  const [domain, setDomain] = useState('');
  const [selector, setSelector] = useState('s1');
  const [keys, setKeys] = useState<KeyState>({ status: 'none' });

  async function generate() {
    setKeys({ status: 'generating' });
    try {
      setKeys({ status: 'ready', pair: await generateDkimKeyPair() });
    } catch {
      // Web Crypto exists only in secure contexts (https or localhost) and modern browsers.
      setKeys({ status: 'failed', message: 'This browser could not create the key (Web Crypto is unavailable here). Use a current browser over https.' });
    }
  }

  const pair = keys.status === 'ready' ? keys.pair : undefined;
  // Rebuilt as the domain or selector changes; the key stays the same.
  const built = useMemo(() => (pair ? buildDkimRecord({ domain, selector, publicKey: pair.publicKeyBase64, keyType: 'rsa' }) : undefined), [pair, domain, selector]);
  const fileName = `${selector.trim() || 'dkim'}${domain.trim() ? `.${domain.trim().toLowerCase()}` : ''}.private.pem`;

  return (
    <ToolPage
      title={route.title}
      lead={`Create a ${DKIM_KEY_BITS}-bit RSA DKIM key pair in your browser: publish the public key in DNS, install the private key on your mail server.`}
      about={[
        {
          heading: 'How DKIM keys are used',
          body: (
            <>
              <p>
                Your mail server signs every outgoing message with the private key; receivers fetch the public key from <code>selector._domainkey.yourdomain.com</code> and check the
                signature. The selector lets you run several keys side by side and rotate them: publish a new selector, switch the server over, then remove the old record.
              </p>
              <p>If a service (Google Workspace, Microsoft 365, your ESP) sends mail for you, use the key it gives you instead: it holds the private key.</p>
            </>
          ),
        },
        {
          heading: 'Why it matters for BIMI',
          body: (
            <p>
              BIMI needs DMARC at enforcement, and DKIM is what keeps DMARC passing when messages are forwarded (SPF breaks on forwarding). Sign with a 2048-bit key aligned with your From
              domain before you move DMARC to quarantine or reject.
            </p>
          ),
        },
      ]}
    >
      <Alert severity="info" sx={{ mt: 3 }} data-testid="key-stays-local">
        The key pair is created by your browser with Web Crypto and never leaves this page: nothing is sent to our server. Download the private key and keep it safe; whoever holds it can
        sign mail as your domain.
      </Alert>
      <Box
        component="form"
        aria-label={route.title}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void generate();
        }}
        sx={{ mt: 3, display: 'flex', gap: 1.5, flexWrap: 'wrap', alignItems: 'flex-start' }}
      >
        <TextInput name="domain" label="Domain" value={domain} onChange={setDomain} placeholder="example.com" helperText="The domain in your From address" sx={{ flex: '2 1 240px' }} />
        <TextInput name="selector" label="Selector" value={selector} onChange={setSelector} helperText="Any name, e.g. s1 or 2026a" sx={{ flex: '1 1 140px' }} />
        <Button
          type="submit"
          variant="contained"
          size="large"
          disabled={keys.status === 'generating'}
          startIcon={keys.status === 'generating' ? <CircularProgress size={18} color="inherit" /> : undefined}
          sx={{ minHeight: 56, flex: { xs: '1 1 100%', sm: '0 0 auto' } }}
        >
          {keys.status === 'generating' ? 'Generating…' : pair ? 'Generate a new key pair' : 'Generate key pair'}
        </Button>
      </Box>
      {keys.status === 'failed' && (
        <Alert severity="error" sx={{ mt: 3 }}>
          {keys.message}
        </Alert>
      )}
      {pair && built && (
        <>
          <GeneratedRecord name={built.name} record={built.record} errors={built.errors} strings={built.strings} what="DKIM record" />
          {built.warnings.map((warning) => (
            <Alert key={warning} severity="warning" sx={{ mt: 2 }}>
              {warning}
            </Alert>
          ))}
          <Box
            component="section"
            aria-label="Private key"
            sx={{ mt: 3, p: 2, border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'background.paper', display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}
          >
            <Box sx={{ flex: '1 1 260px' }}>
              <Typography variant="h3" component="h2" gutterBottom>
                Private key
              </Typography>
              <Typography color="text.secondary">
                PKCS#8 PEM, for OpenDKIM, Postfix, Exim or your mail software's DKIM settings. It is shown nowhere else: download it before you leave.
              </Typography>
            </Box>
            <Button component="a" href={pemDownloadUrl(pair.privateKeyPem)} download={fileName} variant="contained" data-testid="download-private-key">
              Download private key
            </Button>
          </Box>
        </>
      )}
    </ToolPage>
  );
}
