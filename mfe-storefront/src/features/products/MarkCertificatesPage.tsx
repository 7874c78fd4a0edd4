import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { CERTIFICATES, VALIDATION_TIME } from '@bimi/catalog/facts';
import { certificatePlanCents, formatUsd, MAX_DOMAINS, MIN_DOMAINS } from '@bimi/catalog/prices';
import { type CertificateId, PLAN_YEARS } from '@bimi/catalog/products';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ProductPageFrame } from './ProductPageFrame';
import { CERTIFICATE_COPY } from './certificate-copy';

/** How the comparison names and offers each of the four certificates (the set and its order are the catalog's CERTIFICATES). */
const LABELS: Record<CertificateId, { short: string; cta: string }> = {
  'verified-mark-certificate': { short: 'Verified Mark (VMC)', cta: 'Choose VMC' },
  'common-mark-certificate': { short: 'Common Mark (CMC)', cta: 'Choose CMC' },
  'modified-registered-mark': { short: 'Modified Registered Mark', cta: 'Choose modified mark' },
  'government-mark-certificate': { short: 'Government Mark (GMC)', cta: 'Choose GMC' },
};

const COMPARED = CERTIFICATES.map(({ id, path }) => ({ id, to: path, ...LABELS[id] }));

/**
 * At phone width the 760 px table scrolls inside its box both ways (at most 70 % of the screen
 * high), and its header row and first column stay put, so every figure keeps its column's and its
 * row's name in view.
 */
const STICKY_HEAD = { position: 'sticky', top: 0, zIndex: 2, bgcolor: '#f4f7fd' } as const;
const STICKY_FIRST = { position: 'sticky', left: 0, zIndex: 1, bgcolor: '#fff', borderRight: '1px solid', borderRightColor: 'divider', minWidth: 128, fontWeight: 600 } as const;

const REQUIREMENT: Record<CertificateId, string> = {
  'verified-mark-certificate': 'Logo registered as a trademark',
  'common-mark-certificate': 'Logo shown on your website for 12 months or more',
  'modified-registered-mark': 'Logo based on your registered trademark',
  'government-mark-certificate': 'Seal or logo granted to a government body by law',
};

export function MarkCertificatesPage({ route }: PageProps) {
  return (
    <ProductPageFrame title={route.title} lead={route.description}>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: 2, mb: 6 }}>
        {COMPARED.map(({ id, to, short, cta }, index) => (
          <Box key={id} data-testid={`compare-${id}`} sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 2, p: 2.5, display: 'flex', flexDirection: 'column' }}>
            <Typography component="h2" variant="h3">
              {short}
            </Typography>
            <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
              {CERTIFICATE_COPY[id].markType}
            </Typography>
            <Typography sx={{ mt: 2, fontSize: 24, fontWeight: 700 }}>{formatUsd(certificatePlanCents(id, 1))}</Typography>
            <Typography variant="body2" color="text.secondary">
              per domain for 1 year
            </Typography>
            <Typography variant="body2" sx={{ mt: 2, flex: 1 }}>
              {REQUIREMENT[id]}
            </Typography>
            <Button component={RouterLink} to={to} variant={index === 0 ? 'contained' : 'outlined'} sx={{ mt: 2 }} {...(index === 0 && { 'data-testid': 'theme-probe' })}>
              {cta}
            </Button>
          </Box>
        ))}
      </Box>

      <Typography component="h2" variant="h2" gutterBottom>
        Compare in detail
      </Typography>
      {/* On phones the table scrolls inside its box: the region takes keyboard focus so arrow keys can scroll it. */}
      <TableContainer
        tabIndex={0}
        role="region"
        aria-label="Mark certificates compared, scrollable"
        data-testid="compare-table"
        sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 2, maxHeight: { xs: '70vh', md: 'none' } }}
      >
        <Table size="small" aria-label="Mark certificates compared" sx={{ minWidth: 760, borderCollapse: 'separate' }}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ ...STICKY_HEAD, ...STICKY_FIRST, zIndex: 3, bgcolor: '#f4f7fd' }}>Certificate</TableCell>
              {COMPARED.map(({ id, short }) => (
                <TableCell key={id} data-testid={`compare-head-${id}`} sx={{ ...STICKY_HEAD, fontWeight: 700 }}>
                  {short}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            <TableRow>
              <TableCell component="th" scope="row" sx={STICKY_FIRST}>
                You need
              </TableCell>
              {COMPARED.map(({ id }) => (
                <TableCell key={id}>{REQUIREMENT[id]}</TableCell>
              ))}
            </TableRow>
            <TableRow>
              <TableCell component="th" scope="row" sx={STICKY_FIRST}>
                Blue checkmark in Gmail
              </TableCell>
              {COMPARED.map(({ id }) => (
                <TableCell key={id}>{CERTIFICATE_COPY[id].checkmark ? 'Yes' : 'No'}</TableCell>
              ))}
            </TableRow>
            <TableRow>
              <TableCell component="th" scope="row" sx={STICKY_FIRST}>
                Logo shown in
              </TableCell>
              {COMPARED.map(({ id }) => (
                <TableCell key={id}>{CERTIFICATE_COPY[id].mailboxes.join(', ')}</TableCell>
              ))}
            </TableRow>
            {PLAN_YEARS.map((years) => (
              <TableRow key={years}>
                <TableCell component="th" scope="row" sx={STICKY_FIRST}>
                  {years}-year plan, per domain
                </TableCell>
                {COMPARED.map(({ id }) => (
                  <TableCell key={id} data-testid={`compare-${id}-${years}`}>
                    {formatUsd(certificatePlanCents(id, years))}
                  </TableCell>
                ))}
              </TableRow>
            ))}
            <TableRow>
              <TableCell component="th" scope="row" sx={STICKY_FIRST}>
                Domains per certificate
              </TableCell>
              {COMPARED.map(({ id }) => (
                <TableCell key={id}>
                  {MIN_DOMAINS} to {MAX_DOMAINS}
                </TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </TableContainer>
      <Typography color="text.secondary" sx={{ mt: 2 }} data-testid="validation-time">
        {VALIDATION_TIME}
      </Typography>
    </ProductPageFrame>
  );
}
