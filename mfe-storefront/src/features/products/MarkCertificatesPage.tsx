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
import { certificatePlanCents, formatUsd } from '@bimi/catalog/prices';
import { type CertificateId, PLAN_YEARS } from '@bimi/catalog/products';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ProductPageFrame } from './ProductPageFrame';
import { CERTIFICATE_COPY } from './certificate-copy';

/** The four certificates side by side, in the order a buyer usually decides: trademark first. */
const COMPARED: { id: CertificateId; to: string; short: string; cta: string }[] = [
  { id: 'verified-mark-certificate', to: '/products/digicert-verified-mark-certificate', short: 'Verified Mark (VMC)', cta: 'Choose VMC' },
  { id: 'common-mark-certificate', to: '/products/digicert-common-mark-certificate', short: 'Common Mark (CMC)', cta: 'Choose CMC' },
  { id: 'modified-registered-mark', to: '/products/digicert-common-mark-certificate?mark=modified', short: 'Modified Registered Mark', cta: 'Choose modified mark' },
  { id: 'government-mark-certificate', to: '/products/digicert-government-mark-certificate', short: 'Government Mark (GMC)', cta: 'Choose GMC' },
];

const REQUIREMENT: Record<CertificateId, string> = {
  'verified-mark-certificate': 'Logo registered (or pending) as a trademark',
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
      {/* On phones the table scrolls sideways: the region takes keyboard focus so arrow keys can scroll it. */}
      <TableContainer tabIndex={0} role="region" aria-label="Mark certificates compared, scrollable" sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 2 }}>
        <Table size="small" aria-label="Mark certificates compared" sx={{ minWidth: 760 }}>
          <TableHead>
            <TableRow>
              <TableCell />
              {COMPARED.map(({ id, short }) => (
                <TableCell key={id} sx={{ fontWeight: 700 }}>
                  {short}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            <TableRow>
              <TableCell component="th" scope="row">You need</TableCell>
              {COMPARED.map(({ id }) => (
                <TableCell key={id}>{REQUIREMENT[id]}</TableCell>
              ))}
            </TableRow>
            <TableRow>
              <TableCell component="th" scope="row">Blue checkmark in Gmail</TableCell>
              {COMPARED.map(({ id }) => (
                <TableCell key={id}>{CERTIFICATE_COPY[id].checkmark ? 'Yes' : 'No'}</TableCell>
              ))}
            </TableRow>
            <TableRow>
              <TableCell component="th" scope="row">Logo shown in</TableCell>
              {COMPARED.map(({ id }) => (
                <TableCell key={id}>{CERTIFICATE_COPY[id].mailboxes.join(', ')}</TableCell>
              ))}
            </TableRow>
            {PLAN_YEARS.map((years) => (
              <TableRow key={years}>
                <TableCell component="th" scope="row">
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
              <TableCell component="th" scope="row">Domains per certificate</TableCell>
              {COMPARED.map(({ id }) => (
                <TableCell key={id}>1 to 250</TableCell>
              ))}
            </TableRow>
          </TableBody>
        </Table>
      </TableContainer>
    </ProductPageFrame>
  );
}
