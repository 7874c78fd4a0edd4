import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { buildSpfRecord, type SpfQualifier } from '@bimi/email-auth/spf';
import { SPF_LOOKUP_LIMIT } from '@bimi/email-auth/spf-limits';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CheckboxGroup } from '../../components/CheckboxGroup';
import { GeneratedRecord } from '../../components/GeneratedRecord';
import { ToolPage } from '../../components/ToolPage';
import { usePrefill } from '../../lib/prefill';

/** The include each big sender documents for its customers' SPF records. */
const PROVIDERS = [
  { label: 'Google Workspace', value: '_spf.google.com' },
  { label: 'Microsoft 365', value: 'spf.protection.outlook.com' },
  { label: 'Amazon SES', value: 'amazonses.com' },
  { label: 'Mailchimp (Mandrill)', value: 'spf.mandrillapp.com' },
  { label: 'SendGrid', value: 'sendgrid.net' },
  { label: 'Mailgun', value: 'mailgun.org' },
  { label: 'Zoho Mail', value: 'zoho.com' },
  { label: 'Salesforce', value: '_spf.salesforce.com' },
] as const;

const ALL_CHOICES: { value: SpfQualifier; label: string }[] = [
  { value: '-', label: '-all: fail everyone else (recommended once complete)' },
  { value: '~', label: '~all: soft fail everyone else (while you check)' },
  { value: '?', label: '?all: neutral, no opinion (weak)' },
];

/** One entry per line or comma: "192.0.2.0/24, 198.51.100.7". */
function entries(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

export default function SpfGeneratorPage({ route }: PageProps) {
  const prefill = usePrefill();
  const [domain, setDomain] = useState(() => prefill.domain() ?? '');
  const [providers, setProviders] = useState<string[]>([]);
  const [otherIncludes, setOtherIncludes] = useState('');
  const [ip4, setIp4] = useState('');
  const [ip6, setIp6] = useState('');
  const [a, setA] = useState(false);
  const [mx, setMx] = useState(true);
  const [all, setAll] = useState<SpfQualifier>('~');

  const built = useMemo(
    () => buildSpfRecord({ domain, includes: [...providers, ...entries(otherIncludes)], ip4: entries(ip4), ip6: entries(ip6), a, mx, all }),
    [domain, providers, otherIncludes, ip4, ip6, a, mx, all],
  );

  return (
    <ToolPage
      title={route.title}
      lead="List the servers and services that send your mail, and get the SPF record for your domain, checked as you type."
      about={[
        {
          heading: 'Getting SPF right',
          body: (
            <>
              <p>
                A domain has exactly one SPF record, a TXT record at the domain itself (<code>@</code> in most DNS panels). Merge every sender into it: two SPF records make both invalid.
              </p>
              <p>
                Each <code>include</code>, <code>a</code> and <code>mx</code> costs a DNS lookup, and so do the includes inside the providers' own records; past 10 in all, SPF fails. Check
                the published record with the SPF lookup tool to see the full count.
              </p>
            </>
          ),
        },
        {
          heading: 'Why it matters for BIMI',
          body: (
            <p>
              DMARC passes when SPF or DKIM passes for your From domain. List every service that sends for you before you move DMARC to enforcement, or their mail starts failing, and BIMI
              requires enforcement.
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
        sx={{ mt: 3, display: 'grid', gap: 2.5, gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))' } }}
      >
        <TextField label="Domain" value={domain} onChange={(event) => setDomain(event.target.value)} placeholder="example.com" helperText="Optional: shows the full host name" />
        <TextField select label="Everyone else" value={all} onChange={(event) => setAll(event.target.value as SpfQualifier)}>
          {ALL_CHOICES.map((choice) => (
            <MenuItem key={choice.value} value={choice.value}>
              {choice.label}
            </MenuItem>
          ))}
        </TextField>
        <CheckboxGroup legend="Services that send for you" options={PROVIDERS} selected={providers} onChange={setProviders} optionMinWidth={220} />
        <TextField
          label="Other includes"
          value={otherIncludes}
          onChange={(event) => setOtherIncludes(event.target.value)}
          placeholder="spf.example-esp.com"
          helperText="Domains your providers tell you to include"
          multiline
          minRows={1}
        />
        <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
          <FormLabel component="legend">Your own servers</FormLabel>
          <FormGroup row>
            <FormControlLabel label="The domain's MX hosts (mx)" control={<Checkbox checked={mx} onChange={(event) => setMx(event.target.checked)} />} />
            <FormControlLabel label="The domain's address (a)" control={<Checkbox checked={a} onChange={(event) => setA(event.target.checked)} />} />
          </FormGroup>
        </Box>
        <TextField
          label="IPv4 addresses (ip4)"
          value={ip4}
          onChange={(event) => setIp4(event.target.value)}
          placeholder="192.0.2.10, 198.51.100.0/24"
          helperText="Addresses or ranges, separated by commas"
          multiline
          minRows={1}
        />
        <TextField
          label="IPv6 addresses (ip6)"
          value={ip6}
          onChange={(event) => setIp6(event.target.value)}
          placeholder="2001:db8::/32"
          helperText="Addresses or ranges, separated by commas"
          multiline
          minRows={1}
        />
      </Box>
      <GeneratedRecord name={built.name} record={built.record} errors={built.errors} strings={built.strings} what="SPF record" />
      {built.errors.length === 0 && (
        <Typography color="text.secondary" sx={{ mt: 1.5 }} data-testid="spf-generator-lookups">
          This record makes {built.lookups} of the {SPF_LOOKUP_LIMIT} allowed DNS lookups itself; each include adds the lookups of its own record.
        </Typography>
      )}
    </ToolPage>
  );
}
