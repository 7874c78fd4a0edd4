import { useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { buildDmarcRecord, checkBimiReadiness, parseDmarc } from '@bimi/email-auth/dmarc-record';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CheckboxGroup } from '../../components/CheckboxGroup';
import { CheckList } from '../../components/CheckList';
import { GeneratedRecord } from '../../components/GeneratedRecord';
import { ToolPage } from '../../components/ToolPage';
import { ResultSection } from '../../components/ToolResult';
import { usePrefill } from '../../lib/prefill';

const POLICIES = [
  { value: 'none', label: 'none: monitor only, deliver everything' },
  { value: 'quarantine', label: 'quarantine: failing mail goes to spam' },
  { value: 'reject', label: 'reject: failing mail is refused' },
];
const FAILURE_OPTIONS = [
  { value: '0', label: 'All checks fail (0)' },
  { value: '1', label: 'Any check fails (1)' },
  { value: 'd', label: 'DKIM fails (d)' },
  { value: 's', label: 'SPF fails (s)' },
];

/** The path to enforcement, one step per policy: where this policy stands and what comes next. */
const ENFORCEMENT_STEP: Record<string, string> = {
  none: 'Step 1 of 3: monitor. Read the rua reports for 2–4 weeks, then move to quarantine.',
  quarantine: 'Step 2 of 3: failing mail goes to spam. Ready for BIMI; once reports stay clean, move to reject.',
  reject: 'Step 3 of 3: enforced. Failing mail is refused; ready for BIMI.',
};

/** "a@x.com, b@y.com" → ["a@x.com", "b@y.com"]; the builder judges each address. */
function addressList(text: string): string[] {
  return text.split(/[,;\s]+/).filter(Boolean);
}

export default function DmarcGeneratorPage({ route }: PageProps) {
  const prefill = usePrefill();
  const [domain, setDomain] = useState(() => prefill.domain() ?? '');
  // Issue 17: start where the advice says to start, p=none with reports; the path to enforcement is shown under it.
  const [p, setP] = useState<string>(() => prefill.oneOf('p', ['none', 'quarantine', 'reject'] as const) ?? 'none');
  const [sp, setSp] = useState<string>(() => prefill.oneOf('sp', ['none', 'quarantine', 'reject'] as const) ?? '');
  const [pct, setPct] = useState('100');
  const [rua, setRua] = useState(() => prefill.text('rua', 1024) ?? '');
  const [ruf, setRuf] = useState('');
  const [adkim, setAdkim] = useState('r');
  const [aspf, setAspf] = useState('r');
  const [fo, setFo] = useState<string[]>(['0']);

  const pctNumber = pct.trim() === '' ? 100 : Number(pct);
  const built = useMemo(
    () => buildDmarcRecord({ domain, p, ...(sp ? { sp } : {}), pct: pctNumber, rua: addressList(rua), ruf: addressList(ruf), adkim, aspf, fo }),
    [domain, p, sp, pctNumber, rua, ruf, adkim, aspf, fo],
  );
  const readiness = useMemo(() => (built.errors.length ? undefined : checkBimiReadiness(parseDmarc(built.record).record)), [built]);

  return (
    <ToolPage
      title={route.title}
      lead="Build a DMARC record field by field. It is checked as you type, and tells you whether it is strict enough for BIMI."
      about={[
        {
          heading: 'How to roll out DMARC',
          body: (
            <>
              <p>
                Start with <code>p=none</code> and an <code>rua</code> address, and read the aggregate reports for a few weeks: they list every service that sends mail as your domain. Make
                each one pass SPF or DKIM, then move to <code>quarantine</code> and finally <code>reject</code>.
              </p>
              <p>
                Publish the result as a TXT record at <code>_dmarc.yourdomain.com</code>. Most DNS panels want only <code>_dmarc</code> as the host.
              </p>
            </>
          ),
        },
        {
          heading: 'What BIMI needs',
          body: (
            <p>
              <code>p=quarantine</code> or <code>p=reject</code> on all mail: no <code>pct</code> below 100, no <code>sp=none</code>, no testing flag. The readiness list under the record
              updates as you change the fields.
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
        sx={{ mt: 3, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))' } }}
      >
        <TextField label="Domain" value={domain} onChange={(event) => setDomain(event.target.value)} placeholder="example.com" helperText="Optional: fills in the full host name" />
        <TextField
          select
          label="Policy (p)"
          value={p}
          onChange={(event) => setP(event.target.value)}
          helperText={ENFORCEMENT_STEP[p]}
          slotProps={{ formHelperText: { 'data-testid': 'enforcement-path' } as object }}
        >
          {POLICIES.map((policy) => (
            <MenuItem key={policy.value} value={policy.value}>
              {policy.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          label="Subdomain policy (sp)"
          value={sp}
          onChange={(event) => setSp(event.target.value)}
          slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
        >
          <MenuItem value="">Same as the domain</MenuItem>
          {POLICIES.map((policy) => (
            <MenuItem key={policy.value} value={policy.value}>
              {policy.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          label="Percentage (pct)"
          value={pct}
          onChange={(event) => setPct(event.target.value)}
          slotProps={{ htmlInput: { inputMode: 'numeric' } }}
          helperText="Share of failing mail the policy applies to"
        />
        <TextField
          label="Aggregate reports to (rua)"
          value={rua}
          onChange={(event) => setRua(event.target.value)}
          placeholder="dmarc@example.com"
          helperText="One or more addresses, separated by commas"
        />
        <TextField label="Failure reports to (ruf)" value={ruf} onChange={(event) => setRuf(event.target.value)} placeholder="Optional" helperText="Few receivers send these" />
        <TextField select label="DKIM alignment (adkim)" value={adkim} onChange={(event) => setAdkim(event.target.value)}>
          <MenuItem value="r">Relaxed: subdomains may sign</MenuItem>
          <MenuItem value="s">Strict: exact domain only</MenuItem>
        </TextField>
        <TextField select label="SPF alignment (aspf)" value={aspf} onChange={(event) => setAspf(event.target.value)}>
          <MenuItem value="r">Relaxed: subdomains may send</MenuItem>
          <MenuItem value="s">Strict: exact domain only</MenuItem>
        </TextField>
        <CheckboxGroup legend="Send failure reports when (fo)" options={FAILURE_OPTIONS} selected={fo} onChange={setFo} />
      </Box>
      <GeneratedRecord name={built.name} record={built.record} errors={built.errors} what="DMARC record" />
      {readiness && (
        <ResultSection title={readiness.ready ? 'Ready for BIMI' : 'Not ready for BIMI yet'} testId="bimi-readiness">
          <CheckList checks={readiness.checks} />
        </ResultSection>
      )}
    </ToolPage>
  );
}
