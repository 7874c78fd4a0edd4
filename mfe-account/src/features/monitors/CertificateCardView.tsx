import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { shortDate } from '@bimi/contracts/dates';
import type { CertificateCard } from '@bimi/contracts/monitors';
import { StatusChip } from './StatusChip';

const date = (iso: string | null) => (iso ? shortDate(iso) || '—' : '—');

/** The published mark certificate: kind, mark type, who issued it, validity and the logo match. */
export function CertificateCardView({ certificate }: { certificate: CertificateCard }) {
  const rows: [string, string][] = certificate.present
    ? [
        // Read, but naming no VMC or CMC mark type: not stated, rather than not read.
        ['Type', certificate.kind ?? (certificate.validTo !== null || certificate.subject !== null ? 'Not stated' : 'Could not be read')],
        ['Mark', certificate.markType ?? '—'],
        ['Subject', certificate.subject ?? '—'],
        ['Issuer', certificate.issuer ?? '—'],
        ['Valid', `${date(certificate.validFrom)} – ${date(certificate.validTo)}`],
        ['Logo matches', certificate.logoHashMatches === null ? 'Not compared' : certificate.logoHashMatches ? 'Yes' : 'No'],
      ]
    : [];
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="certificate-heading"
      data-testid="certificate-card"
      sx={{ p: 2.5, borderRadius: 3, display: 'grid', gap: 1.25, alignContent: 'start' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <Typography id="certificate-heading" variant="h2" sx={{ fontSize: 18, fontWeight: 700, flex: 1 }}>
          Mark certificate
        </Typography>
        <StatusChip status={certificate.status} />
      </Box>
      <Typography sx={{ fontSize: 15 }}>{certificate.summary}</Typography>
      {certificate.daysLeft !== null && certificate.daysLeft >= 0 && (
        <Typography sx={{ fontSize: 28, fontWeight: 700, lineHeight: 1.1 }}>
          {certificate.daysLeft}
          <Box component="span" sx={{ fontSize: 14, fontWeight: 500, color: 'text.secondary', ml: 0.75 }}>
            days left
          </Box>
        </Typography>
      )}
      {rows.length > 0 && (
        <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 2, rowGap: 0.5, fontSize: 14 }}>
          {rows.map(([term, value]) => (
            <Box key={term} sx={{ display: 'contents' }}>
              <Box component="dt" sx={{ color: 'text.secondary' }}>
                {term}
              </Box>
              <Box component="dd" sx={{ m: 0, overflowWrap: 'anywhere' }}>
                {value}
              </Box>
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
