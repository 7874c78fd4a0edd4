import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { PRODUCTS, type ProductId } from '@bimi/catalog/products';
import { certificatePlanCents, DMARC_OPTIONS, formatUsd } from '@bimi/catalog/prices';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AccountPageTitle } from '../../components/SettingsCard';

/** The storefront page where each product is configured and added to the cart. */
const OFFERS: { id: ProductId; to: string }[] = [
  { id: 'verified-mark-certificate', to: '/products/digicert-verified-mark-certificate' },
  { id: 'common-mark-certificate', to: '/products/digicert-common-mark-certificate' },
  { id: 'modified-registered-mark', to: '/products/digicert-common-mark-certificate' },
  { id: 'government-mark-certificate', to: '/products/digicert-government-mark-certificate' },
  { id: 'dmarc-plus', to: '/products/easydmarc-enforcement' },
  { id: 'dmarc-premium', to: '/products/easydmarc-enforcement' },
];

function startingPrice(id: ProductId): string {
  const product = PRODUCTS[id];
  if (product.type === 'dmarc') {
    const cheapest = DMARC_OPTIONS[id as 'dmarc-plus' | 'dmarc-premium'][0];
    return cheapest ? `From ${formatUsd(cheapest.price)} a month` : '';
  }
  return `From ${formatUsd(certificatePlanCents(id, 1))} a year per domain`;
}

export function BuyNowPage({ route }: PageProps) {
  return (
    <>
      <AccountPageTitle
        title={route.title}
        lead="Mark certificates show your logo in supporting mailboxes; DMARC plans get your domain to enforcement. Choose one to configure it and add it to your cart."
      />
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' } }}>
        {OFFERS.map(({ id, to }) => {
          const product = PRODUCTS[id];
          return (
            <Paper key={id} component="article" variant="outlined" aria-label={product.name} sx={{ p: 3, borderRadius: 3, display: 'flex', flexDirection: 'column', gap: 1.25 }}>
              <Typography variant="overline" color="text.secondary">
                {product.abbreviation}
              </Typography>
              <Typography variant="h2" sx={{ fontSize: 20, fontWeight: 700 }}>
                {product.name}
              </Typography>
              <Typography sx={{ fontWeight: 700, color: 'primary.main' }}>{startingPrice(id)}</Typography>
              <Box component="ul" sx={{ pl: 2.5, m: 0, color: 'text.secondary', fontSize: 15, flex: 1 }}>
                {product.features.slice(0, 3).map((feature) => (
                  <li key={feature}>{feature}</li>
                ))}
              </Box>
              <Button component={RouterLink} to={to} variant="contained" sx={{ alignSelf: 'flex-start', mt: 1 }}>
                Configure
              </Button>
            </Paper>
          );
        })}
      </Box>
    </>
  );
}
