import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';

const PRODUCTS = [
  {
    to: '/products/digicert-verified-mark-certificate',
    name: 'Verified Mark Certificate',
    text: 'For a registered trademark. Shows your logo and, in Gmail, a blue verified checkmark.',
  },
  {
    to: '/products/digicert-common-mark-certificate',
    name: 'Common Mark Certificate',
    text: 'For a logo you have used for at least a year, no trademark registration needed.',
  },
  {
    to: '/products/digicert-government-mark-certificate',
    name: 'Government Mark Certificate',
    text: 'For federal, state and local agencies showing an official seal or logo.',
  },
  {
    to: '/products/easydmarc-enforcement',
    name: 'DMARC enforcement',
    text: 'BIMI needs DMARC at quarantine or reject. Our plans get you there without losing mail.',
  },
];

export function HomePage({ route }: PageProps) {
  return (
    <>
      <Box component="section" sx={{ maxWidth: 1120, mx: 'auto', px: { xs: 2.5, md: 4 }, pt: { xs: 6, md: 10 }, pb: { xs: 6, md: 8 } }}>
        <Typography variant="overline" color="primary" sx={{ fontWeight: 700 }}>
          BIMI mark certificates
        </Typography>
        <Typography variant="h1" sx={{ fontSize: { xs: '2.1rem', md: '3.2rem' }, maxWidth: 820, mb: 2 }}>
          Put your logo next to every email you send
        </Typography>
        <Typography color="text.secondary" sx={{ fontSize: { xs: 17, md: 20 }, maxWidth: 700, mb: 4 }}>
          {route.description}
        </Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <Button component={RouterLink} to="/products/digicert-mark-certificates" variant="contained" size="large" data-testid="theme-probe">
            Compare mark certificates
          </Button>
          <Button component={RouterLink} to="/bimi-checker" variant="outlined" size="large">
            Check your BIMI record
          </Button>
        </Box>
      </Box>
      <Box component="section" aria-labelledby="products-heading" sx={{ maxWidth: 1120, mx: 'auto', px: { xs: 2.5, md: 4 }, pb: 10 }}>
        <Typography id="products-heading" variant="h2" sx={{ mb: 3 }}>
          Choose what your brand needs
        </Typography>
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' } }}>
          {PRODUCTS.map((product) => (
            <Box
              key={product.to}
              component={RouterLink}
              to={product.to}
              sx={{ display: 'block', p: 3, borderRadius: 2, border: '1px solid', borderColor: 'divider', bgcolor: 'background.paper', color: 'text.primary', textDecoration: 'none', '&:hover': { borderColor: 'primary.main', boxShadow: 3 } }}
            >
              <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
                {product.name}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {product.text}
              </Typography>
            </Box>
          ))}
        </Box>
      </Box>
    </>
  );
}
