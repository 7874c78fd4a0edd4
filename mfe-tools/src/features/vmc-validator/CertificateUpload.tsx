import { useState } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { MAX_PEM_BYTES } from '@bimi/contracts/tools';
import { FilePicker } from '../../components/FilePicker';
import { TextInput } from '../../components/TextInput';
import { validateDomain } from '../../lib/domain';

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** What is wrong with a chosen file before it is sent, or undefined when it looks like a PEM certificate. */
function describePemProblem(file: { name: string; size: number }, text: string): string | undefined {
  if (file.size === 0) return `${file.name} is empty.`;
  if (file.size > MAX_PEM_BYTES)
    return `${file.name} is ${Math.round(file.size / 1024)} KB; a mark certificate file is at most ${MAX_PEM_BYTES / 1024} KB. Choose the .pem file your issuer sent.`;
  if (!PEM_BLOCK.test(text)) {
    return `${file.name} is not a PEM certificate: it must contain a block starting with -----BEGIN CERTIFICATE-----. Convert a DER (.cer) file with: openssl x509 -inform der -in cert.cer -out cert.pem`;
  }
  return undefined;
}

/**
 * Choose a .pem file, and optionally the domain it must name; the file is read in the browser,
 * checked to be PEM, then handed over.
 */
export function CertificateUpload({ busy, onPem }: { busy: boolean; onPem: (upload: { pem: string; domain?: string }, fileName: string) => void }) {
  const [problem, setProblem] = useState<string>();
  const [fileName, setFileName] = useState<string>();
  const [domain, setDomain] = useState('');
  const [domainError, setDomainError] = useState<string>();

  function checkedDomain(): { ok: boolean; value?: string } {
    if (domain.trim() === '') return { ok: true };
    const result = validateDomain(domain);
    setDomainError(result.ok ? undefined : result.message);
    return result.ok ? { ok: true, value: result.value } : { ok: false };
  }

  async function choose(file: File) {
    setFileName(file.name);
    const text = file.size > MAX_PEM_BYTES ? '' : await file.text();
    const found = describePemProblem(file, text);
    setProblem(found);
    const named = checkedDomain();
    if (found || !named.ok) return;
    onPem(named.value ? { pem: text, domain: named.value } : { pem: text }, file.name);
  }

  return (
    <Box component="form" aria-label="Upload a certificate" onSubmit={(event) => event.preventDefault()} sx={{ mt: 3 }}>
      <TextInput
        name="domain"
        label="Domain (optional)"
        value={domain}
        onChange={(value) => {
          setDomain(value);
          setDomainError(undefined);
        }}
        onBlur={() => checkedDomain()}
        placeholder="example.com"
        error={Boolean(domainError)}
        helperText={domainError ?? 'Also check that the certificate names this domain'}
        sx={{ width: '100%', maxWidth: 480, mb: 2 }}
      />
      <FilePicker
        variant="contained"
        busy={busy}
        buttonLabel="Choose a PEM file"
        inputLabel="Certificate file (PEM)"
        accept=".pem,.crt,.cer,application/x-pem-file,application/x-x509-ca-cert"
        fileName={fileName}
        onFile={(file) => void choose(file)}
      />
      <Typography role={problem ? 'alert' : undefined} color={problem ? 'error' : 'text.secondary'} sx={{ mt: 1, fontSize: 14, overflowWrap: 'anywhere' }}>
        {problem ?? 'The file is sent to our server only to be checked; it is not stored.'}
      </Typography>
    </Box>
  );
}
