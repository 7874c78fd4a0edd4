import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { MONOSPACE } from './RecordsTable';
import type { MarkCertificate } from '@bimi/contracts/tools';
import { certificateRows } from '../lib/certificate';

const MONOSPACE_ROWS = new Set(['Serial number', 'Fingerprint', 'Logo hash']);

/** The certificate's facts as a definition list: two columns on a desktop, stacked on a phone. */
export function CertificateDetails({ certificate }: { certificate: MarkCertificate }) {
  return (
    <Box
      component="dl"
      data-testid="certificate-details"
      sx={{ m: 0, display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '220px 1fr' }, columnGap: 2, border: 1, borderColor: 'divider', borderRadius: 2, p: 2, bgcolor: 'background.paper' }}
    >
      {certificateRows(certificate).map((row) => (
        <Box key={row.label} sx={{ display: 'contents' }}>
          <Typography component="dt" sx={{ fontWeight: 600, pt: 1 }}>
            {row.label}
          </Typography>
          <Typography
            component="dd"
            sx={{
              m: 0,
              pt: { xs: 0, sm: 1 },
              pb: { xs: 1, sm: 0 },
              color: 'text.secondary',
              overflowWrap: 'anywhere',
              fontFamily: MONOSPACE_ROWS.has(row.label) ? MONOSPACE : undefined,
              fontSize: MONOSPACE_ROWS.has(row.label) ? 13 : undefined,
            }}
          >
            {row.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
