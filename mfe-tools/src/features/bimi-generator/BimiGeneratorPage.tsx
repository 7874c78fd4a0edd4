import { useMemo, useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { buildBimiRecord } from '@bimi/email-auth/bimi-record';
import type { PageProps } from '@bimi/ui/RouteTable';
import { GeneratedRecord } from '../../components/GeneratedRecord';
import { ToolPage } from '../../components/ToolPage';
import { LogoCheck } from './LogoCheck';
import { usePrefill } from '../../lib/prefill';

export default function BimiGeneratorPage({ route }: PageProps) {
  const prefill = usePrefill();
  const [domain, setDomain] = useState(() => prefill.domain() ?? '');
  const [selector, setSelector] = useState(() => prefill.text('selector', 63) ?? 'default');
  const [logo, setLogo] = useState(() => prefill.text('logo') ?? '');
  const [evidence, setEvidence] = useState(() => prefill.text('evidence') ?? '');
  const [avatarPreference, setAvatarPreference] = useState<'' | 'brand' | 'personal'>('');

  const built = useMemo(() => buildBimiRecord({ domain, selector, logo, evidence, ...(avatarPreference ? { avatarPreference } : {}) }), [domain, selector, logo, evidence, avatarPreference]);

  return (
    <ToolPage
      title={route.title}
      lead="Build the BIMI record that points mailboxes at your logo and your mark certificate, and check the logo file before you publish it."
      about={[
        {
          heading: 'What goes in the record',
          body: (
            <>
              <p>
                <code>l=</code> is the https:// address of your logo, an SVG Tiny Portable/Secure file of at most 32 KB. <code>a=</code> is the https:// address of your mark certificate (VMC
                or CMC) as the PEM file your issuer delivered. Publish the record as TXT at <code>default._bimi.yourdomain.com</code>.
              </p>
              <p>Leave both addresses empty to publish a declination record: it says the domain does not take part in BIMI.</p>
            </>
          ),
        },
        {
          heading: 'Before you publish',
          body: (
            <p>
              Your DMARC policy must be at <code>quarantine</code> or <code>reject</code>, and the logo at <code>l=</code> must be the very file embedded in the certificate. After
              publishing, run the BIMI checker: it fetches both files and compares them.
            </p>
          ),
        },
      ]}
    >
      <Box
        component="form"
        aria-label={route.title}
        noValidate
        onSubmit={(event) => event.preventDefault()}
        sx={{ mt: 3, display: 'grid', gap: 2, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}
      >
        <TextField label="Domain" value={domain} onChange={(event) => setDomain(event.target.value)} placeholder="example.com" helperText="Optional: shows the full host name" />
        <TextField label="Selector" value={selector} onChange={(event) => setSelector(event.target.value)} helperText="Mailboxes look up default unless a message names another" />
        <TextField
          label="Logo address (l=)"
          value={logo}
          onChange={(event) => setLogo(event.target.value)}
          placeholder="https://example.com/bimi/logo.svg"
          helperText="SVG Tiny PS, served over https"
        />
        <TextField
          label="Certificate address (a=)"
          value={evidence}
          onChange={(event) => setEvidence(event.target.value)}
          placeholder="https://example.com/bimi/vmc.pem"
          helperText="Your VMC or CMC as a PEM file"
        />
        <TextField
          select
          label="Avatar preference (avp=)"
          value={avatarPreference}
          onChange={(event) => setAvatarPreference(event.target.value as '' | 'brand' | 'personal')}
          helperText="Optional: brand logo or the sender's personal picture"
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">Not set (brand)</MenuItem>
          <MenuItem value="brand">brand</MenuItem>
          <MenuItem value="personal">personal</MenuItem>
        </TextField>
      </Box>
      <GeneratedRecord name={built.name} record={built.record} errors={built.errors} strings={built.strings} what="BIMI record" />
      {built.errors.length === 0 && logo.trim() === '' && evidence.trim() === '' && (
        <Alert severity="info" sx={{ mt: 2 }}>
          With both addresses empty this is a declination record: it tells mailboxes to show no logo for the domain. Enter your logo address to take part in BIMI.
        </Alert>
      )}
      {built.errors.length === 0 &&
        built.warnings.map((warning) => (
          <Alert key={warning} severity="warning" sx={{ mt: 2 }}>
            {warning}
          </Alert>
        ))}
      <LogoCheck sender={domain.trim() || 'Your brand'} />
    </ToolPage>
  );
}
