import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import { dmarcMaxVolume, dmarcOffersVolume, dmarcVolumeFact } from '@bimi/catalog/facts';
import { dmarcCartItem } from '@bimi/catalog/cart-items';
import { type BillingPeriod, DMARC_EMAIL_VOLUMES, type DmarcOption, dmarcOptionFor, formatEmailVolume, formatUsd, PriceRuleError } from '@bimi/catalog/prices';
import { DMARC_PRODUCT_IDS, type DmarcProductId, PRODUCTS } from '@bimi/catalog/products';
import { addToCart } from '@bimi/cart/store';
import { readPriceSettings } from '@bimi/cart/price-settings';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ProductPageFrame } from './ProductPageFrame';

/** The plan's option for the chosen volume, or the rule's message (spec §8: "No pricing option found for email volume"). */
function optionOrMessage(productId: DmarcProductId, emailVolume: number): DmarcOption | string {
  try {
    return dmarcOptionFor(productId, emailVolume);
  } catch (error) {
    if (error instanceof PriceRuleError) return error.message;
    throw error;
  }
}

function PlanCard({ productId, emailVolume, billingPeriod }: { productId: DmarcProductId; emailVolume: number; billingPeriod: BillingPeriod }) {
  const product = PRODUCTS[productId];
  const option = optionOrMessage(productId, emailVolume);
  const offered = dmarcOffersVolume(productId, emailVolume);
  const add = () => addToCart(product.name, () => [dmarcCartItem({ productId, emailVolume, billingPeriod, sourcePageType: 'product' }, { settings: readPriceSettings() })]);
  return (
    <Box
      data-testid={`dmarc-plan-${productId}`}
      sx={{ border: '1px solid', borderColor: productId === 'dmarc-premium' ? 'primary.main' : 'divider', borderRadius: 2, p: { xs: 2.5, md: 3 }, display: 'flex', flexDirection: 'column' }}
    >
      <Typography component="h2" variant="h2">
        {product.name}
      </Typography>
      <Box sx={{ my: 2, minHeight: 76 }}>
        {typeof option === 'string' ? (
          <>
            {/* Spec §8's message, then what to do about it. */}
            <Typography color="error" data-testid="dmarc-price-missing">
              {option}
            </Typography>
            <Typography variant="body2" color="text.secondary" data-testid="dmarc-not-offered">
              {product.name} is sold up to {formatEmailVolume(dmarcMaxVolume(productId))} a month: for more, choose {PRODUCTS['dmarc-premium'].name}.
            </Typography>
          </>
        ) : billingPeriod === 'monthly' ? (
          <>
            <Typography sx={{ fontSize: 30, fontWeight: 700 }} data-testid="dmarc-price" data-cents={option.price}>
              {formatUsd(option.price)}
              <Box component="span" sx={{ fontSize: 16, fontWeight: 400, color: 'text.secondary' }}>
                {' '}
                /month
              </Box>
            </Typography>
            <Typography variant="body2" color="text.secondary">
              or {formatUsd(option.annualPrice)} billed annually
            </Typography>
          </>
        ) : (
          <>
            <Typography sx={{ fontSize: 30, fontWeight: 700 }} data-testid="dmarc-price" data-cents={option.annualPrice}>
              {formatUsd(option.annualPrice)}
              <Box component="span" sx={{ fontSize: 16, fontWeight: 400, color: 'text.secondary' }}>
                {' '}
                /year
              </Box>
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {formatUsd(option.price)} a month, billed once a year
            </Typography>
          </>
        )}
      </Box>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, mb: 3, flex: 1 }}>
        {/* The volume line follows the selector: the card never names a volume other than the one chosen. */}
        <Box component="li" data-testid="dmarc-volume" data-offered={offered} sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 0.75, fontWeight: 600 }}>
          {offered ? <CheckCircleOutlined color="success" fontSize="small" /> : <InfoOutlined color="warning" fontSize="small" />} {dmarcVolumeFact(productId, emailVolume)}
        </Box>
        {product.features.map((feature) => (
          <Box component="li" key={feature} sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 0.75 }}>
            <CheckCircleOutlined color="success" fontSize="small" /> {feature}
          </Box>
        ))}
      </Box>
      <Button variant="contained" size="large" disabled={typeof option === 'string'} onClick={add} data-testid={productId === 'dmarc-plus' ? 'theme-probe' : undefined}>
        Add {product.name} to cart
      </Button>
    </Box>
  );
}

const STEPS = [
  ['Monitor', 'Publish a p=none DMARC record with reporting; the plan collects and reads the aggregate reports from every mailbox provider.'],
  ['Fix', 'See every service sending as your domain, and align SPF and DKIM for the legitimate ones (newsletters, CRM, billing, help desk).'],
  ['Enforce', 'Move to p=quarantine and then p=reject in steps, watching the reports, until spoofed mail is refused. Enforcement is what BIMI requires.'],
] as const;

/** Spec §9: DMARC Plus and Premium, priced by monthly email volume, billed monthly or annually. */
export function DmarcEnforcementPage({ route }: PageProps) {
  const [emailVolume, setEmailVolume] = useState<number>(DMARC_EMAIL_VOLUMES[0]);
  const [billingPeriod, setBillingPeriod] = useState<BillingPeriod>('monthly');
  return (
    <ProductPageFrame title={route.title} lead={route.description}>
      <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', alignItems: 'center', mb: 3 }}>
        <TextField
          select
          label="Emails sent per month"
          value={emailVolume}
          onChange={(event) => setEmailVolume(Number(event.target.value))}
          sx={{ width: { xs: '100%', sm: 260 } }}
          slotProps={{ select: { inputProps: { 'data-testid': 'email-volume' } } }}
        >
          {DMARC_EMAIL_VOLUMES.map((volume) => (
            <MenuItem key={volume} value={volume}>
              Up to {formatEmailVolume(volume)}
            </MenuItem>
          ))}
        </TextField>
        <ToggleButtonGroup exclusive color="primary" value={billingPeriod} onChange={(_event, value: BillingPeriod | null) => value && setBillingPeriod(value)} aria-label="Billing period">
          <ToggleButton value="monthly">Monthly</ToggleButton>
          <ToggleButton value="annual">Annual</ToggleButton>
        </ToggleButtonGroup>
      </Box>

      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 3, mb: 6 }}>
        {DMARC_PRODUCT_IDS.map((productId) => (
          <PlanCard key={productId} productId={productId} emailVolume={emailVolume} billingPeriod={billingPeriod} />
        ))}
      </Box>

      <Typography component="h2" variant="h2" gutterBottom>
        From monitoring to enforcement
      </Typography>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' }, gap: 3 }}>
        {STEPS.map(([title, detail], index) => (
          <Box key={title}>
            <Typography sx={{ fontWeight: 700 }}>
              {index + 1}. {title}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {detail}
            </Typography>
          </Box>
        ))}
      </Box>
    </ProductPageFrame>
  );
}
