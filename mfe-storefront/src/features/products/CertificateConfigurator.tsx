import { lazy, Suspense, useId, useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import ButtonBase from '@mui/material/ButtonBase';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import { certificateCartItems } from '@bimi/catalog/cart-items';
import { certificateListCents, certificatePriceCents, certificateSavingsCents, formatUsd, MAX_DOMAINS, MAX_LOGOS, MIN_DOMAINS, MIN_LOGOS, RULE_MESSAGES } from '@bimi/catalog/prices';
import {
  AGENCY_LEVEL_OPTIONS,
  type AgencyLevel,
  type CertificateId,
  DEFAULT_AGENCY_LEVEL,
  PLAN_YEARS,
  PRODUCTS,
  TRADEMARK_STATUS_OPTIONS,
  type TrademarkStatus,
} from '@bimi/catalog/products';
import { addToCart, updateInCart } from '@bimi/cart/store';
import { useCart } from '@bimi/cart/useCart';
import { openCartDrawer } from '@bimi/cart/drawer';
import { readPriceSettings } from '@bimi/cart/price-settings';
import { salesContactPath } from '@bimi/catalog/sales';

const AgencyLevelField = lazy(() => import('./AgencyLevelField').then((module) => ({ default: module.AgencyLevelField })));

/** A count past the certificate's limit ("400" domains): the buyer is offered a talk with sales instead of prices. */
function beyondLimit(text: string, max: number): number | null {
  if (!/^\d{1,9}$/.test(text.trim())) return null;
  const value = Number(text);
  return value > max ? value : null;
}

/** The configuration a link may carry (the cart drawer's Edit): ?domains=3&years=2&logos=1&trademark=Pending&agency=State&edit={uniqueId}. */
function initialConfiguration(params: URLSearchParams) {
  const text = (name: string, fallback: string) => {
    const value = params.get(name);
    return value !== null && /^\d{1,4}$/.test(value) ? value : fallback;
  };
  const years = Number(params.get('years'));
  const trademark = params.get('trademark');
  const agency = params.get('agency');
  return {
    domainsText: text('domains', '1'),
    logosText: text('logos', '1'),
    years: (PLAN_YEARS as readonly number[]).includes(years) ? (years as (typeof PLAN_YEARS)[number]) : 1,
    trademarkStatus: (TRADEMARK_STATUS_OPTIONS as readonly string[]).includes(trademark ?? '') ? (trademark as TrademarkStatus) : 'Registered',
    agencyLevel: (AGENCY_LEVEL_OPTIONS as readonly string[]).includes(agency ?? '') ? (agency as AgencyLevel) : DEFAULT_AGENCY_LEVEL,
  };
}

/** The contact form, on the sales topic, with the configuration written out for the specialist. */
function talkToSalesLink(productName: string, domains: number, years: number, logosText: string): string {
  const logos = /^\d{1,4}$/.test(logosText.trim()) ? Number(logosText) : 1;
  const message = `We would like a quote for a ${productName} covering ${domains} domains, on a ${years}-year plan, for ${logos} logo${logos === 1 ? '' : 's'}.`;
  return salesContactPath(message);
}

/** A whole number typed into a field, or null while the text is not one within the range. */
function wholeNumberIn(text: string, min: number, max: number): number | null {
  if (!/^\d{1,4}$/.test(text.trim())) return null;
  const value = Number(text);
  return value >= min && value <= max ? value : null;
}

function NumberField({
  label,
  value,
  onChange,
  min,
  max,
  error,
  helper,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  min: number;
  max: number;
  error: string | null;
  helper: string;
}) {
  // TextField's parts, not TextField: it imports MUI's select (its menu, popover and modal) for
  // every field, and the configurator's first view shows none of them (issue 34).
  const id = useId();
  return (
    <FormControl error={error !== null} sx={{ width: { xs: '100%', sm: 200 } }}>
      <InputLabel htmlFor={id}>{label}</InputLabel>
      <OutlinedInput
        id={id}
        label={label}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        inputProps={{ inputMode: 'numeric', min, max }}
        aria-describedby={`${id}-helper`}
      />
      <FormHelperText id={`${id}-helper`}>{error ?? helper}</FormHelperText>
    </FormControl>
  );
}

/**
 * Spec §9: configure a certificate (domains 1–250, 1–3 years, logos) and see every plan's price
 * and savings live. Each logo becomes its own cart item; every figure comes from @bimi/catalog.
 */
export function CertificateConfigurator({ productId }: { productId: CertificateId }) {
  const product = PRODUCTS[productId];
  const [searchParams, setSearchParams] = useSearchParams();
  const [initial] = useState(() => initialConfiguration(searchParams));
  const [domainsText, setDomainsText] = useState(initial.domainsText);
  const [logosText, setLogosText] = useState(initial.logosText);
  const [years, setYears] = useState<(typeof PLAN_YEARS)[number]>(initial.years);
  const [trademarkStatus, setTrademarkStatus] = useState<TrademarkStatus>(initial.trademarkStatus);
  const [agencyLevel, setAgencyLevel] = useState<AgencyLevel>(initial.agencyLevel);
  const { items } = useCart();
  const inCart = items.filter((item) => item.id === productId).reduce((n, item) => n + item.quantity, 0);
  // Editing a cart line (its Edit action in the drawer): "Update cart" replaces that line, while it is still in the cart.
  const editing = items.find((item) => item.uniqueId === searchParams.get('edit') && item.id === productId);

  const domains = wholeNumberIn(domainsText, MIN_DOMAINS, MAX_DOMAINS);
  const tooManyDomains = beyondLimit(domainsText, MAX_DOMAINS);
  const logos = wholeNumberIn(logosText, MIN_LOGOS, MAX_LOGOS);
  const valid = domains !== null && logos !== null;
  const perCertificate = domains !== null ? certificatePriceCents({ productId, domains, years }) : null;
  const total = perCertificate !== null && logos !== null ? perCertificate * logos : null;

  const add = () => {
    if (domains === null || logos === null) return;
    const build = () =>
      certificateCartItems(
        {
          productId,
          domains,
          years,
          logos,
          sourcePageType: 'product',
          ...(product.trademarkStatusOptions.length > 0 && { trademarkStatus }),
          ...(product.agencyLevelOptions.length > 0 && { agencyLevel }),
        },
        { settings: readPriceSettings() },
      );
    if (!editing) {
      addToCart(product.name, build);
      return;
    }
    if (updateInCart(product.name, editing.uniqueId, build)) {
      // The line is replaced: the page is the product page again, and a further click adds.
      const next = new URLSearchParams(searchParams);
      next.delete('edit');
      setSearchParams(next, { replace: true });
      openCartDrawer();
    }
  };

  return (
    <Box data-testid="certificate-configurator" data-product={productId} sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 2, p: { xs: 2.5, md: 4 }, bgcolor: '#fff' }}>
      <Typography component="h2" variant="h2" sx={{ mb: 1 }}>
        Configure your {product.name}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 3 }}>
        Price per certificate covers every domain on it for the whole term. Each logo needs its own certificate.
      </Typography>

      <Box sx={{ display: 'flex', gap: 3, flexWrap: 'wrap', mb: 3 }}>
        <NumberField
          label="Domains"
          value={domainsText}
          onChange={setDomainsText}
          min={MIN_DOMAINS}
          max={MAX_DOMAINS}
          error={domains === null ? RULE_MESSAGES.domains : null}
          helper={`${MIN_DOMAINS} to ${MAX_DOMAINS} per certificate`}
        />
        <NumberField
          label="Logos"
          value={logosText}
          onChange={setLogosText}
          min={MIN_LOGOS}
          max={MAX_LOGOS}
          error={logos === null ? RULE_MESSAGES.logos : null}
          helper="One certificate per logo"
        />
        {product.agencyLevelOptions.length > 0 && (
          <Suspense fallback={null}>
            <AgencyLevelField value={agencyLevel} onChange={setAgencyLevel} />
          </Suspense>
        )}
      </Box>

      {product.trademarkStatusOptions.length > 0 && (
        <Box sx={{ mb: 3 }}>
          <Typography id="trademark-status" sx={{ fontWeight: 600 }}>
            Trademark status
          </Typography>
          <RadioGroup row aria-labelledby="trademark-status" value={trademarkStatus} onChange={(event) => setTrademarkStatus(event.target.value as TrademarkStatus)}>
            {TRADEMARK_STATUS_OPTIONS.map((status) => (
              <FormControlLabel key={status} value={status} control={<Radio />} label={status} />
            ))}
          </RadioGroup>
        </Box>
      )}

      {tooManyDomains !== null ? (
        <Box
          data-testid="talk-to-sales"
          sx={{
            borderTop: '1px solid',
            borderColor: 'divider',
            pt: 3,
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            gap: 2,
            alignItems: { xs: 'stretch', sm: 'center' },
            justifyContent: 'space-between',
          }}
        >
          <Box>
            <Typography sx={{ fontWeight: 700 }}>More than {MAX_DOMAINS} domains?</Typography>
            <Typography color="text.secondary">
              One certificate covers up to {MAX_DOMAINS} domains. Our sales team plans {tooManyDomains.toLocaleString('en-US')} domains across certificates and quotes them for you.
            </Typography>
          </Box>
          <Button
            component={RouterLink}
            to={talkToSalesLink(product.name, tooManyDomains, years, logosText)}
            variant="contained"
            size="large"
            data-testid="talk-to-sales-link"
            sx={{ flexShrink: 0 }}
          >
            Talk to sales
          </Button>
        </Box>
      ) : (
        <>
          <Typography id="plan-length" sx={{ fontWeight: 600, mb: 1 }}>
            Plan length
          </Typography>
          <Box role="radiogroup" aria-labelledby="plan-length" sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: 'repeat(3, 1fr)' }, gap: 2, mb: 3 }}>
            {PLAN_YEARS.map((planYears) => {
              const selected = planYears === years;
              const price = domains !== null ? certificatePriceCents({ productId, domains, years: planYears }) : null;
              const savings = domains !== null ? certificateSavingsCents({ productId, domains, years: planYears }) : null;
              const list = domains !== null ? certificateListCents({ productId, domains, years: planYears }) : null;
              return (
                <ButtonBase
                  key={planYears}
                  role="radio"
                  aria-checked={selected}
                  data-testid={`plan-${planYears}`}
                  data-cents={price ?? ''}
                  onClick={() => setYears(planYears)}
                  sx={{
                    display: 'block',
                    textAlign: 'left',
                    p: 2,
                    borderRadius: 2,
                    border: '2px solid',
                    borderColor: selected ? 'primary.main' : 'divider',
                    bgcolor: selected ? '#e8efff' : 'transparent',
                  }}
                >
                  <Typography sx={{ fontWeight: 700 }}>{product.subscriptionOptions?.[`${planYears}yr`]?.label}</Typography>
                  <Typography sx={{ fontSize: 22, fontWeight: 700, my: 0.5 }}>{price !== null ? formatUsd(price) : '—'}</Typography>
                  {list !== null && savings !== null && (
                    <Typography variant="body2" color="success.main" sx={{ fontWeight: 600 }}>
                      Save {formatUsd(savings)}{' '}
                      <Box component="span" sx={{ color: 'text.secondary', textDecoration: 'line-through', fontWeight: 400 }}>
                        {formatUsd(list)}
                      </Box>
                    </Typography>
                  )}
                  <Typography variant="body2" color="text.secondary">
                    per certificate{domains !== null && domains > 1 ? `, ${domains} domains` : ''}
                  </Typography>
                </ButtonBase>
              );
            })}
          </Box>

          <Box
            sx={{
              display: 'flex',
              alignItems: { xs: 'stretch', sm: 'center' },
              flexDirection: { xs: 'column', sm: 'row' },
              gap: 2,
              justifyContent: 'space-between',
              borderTop: '1px solid',
              borderColor: 'divider',
              pt: 3,
            }}
          >
            <Box>
              <Typography color="text.secondary">
                {logos ?? '—'} certificate{logos === 1 ? '' : 's'} × {perCertificate !== null ? formatUsd(perCertificate) : '—'}
              </Typography>
              <Typography sx={{ fontSize: 28, fontWeight: 700 }} data-testid="configured-total" data-cents={total ?? ''}>
                {total !== null ? formatUsd(total) : '—'}
              </Typography>
            </Box>
            <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: { xs: 'stretch', sm: 'flex-end' }, gap: 1 }}>
              <Button variant="contained" size="large" data-testid="add-to-cart" disabled={!valid} onClick={add}>
                {editing ? 'Update cart' : 'Add to cart'}
              </Button>
              {inCart > 0 && (
                <Button size="small" onClick={openCartDrawer} data-testid="in-cart" data-count={inCart}>
                  {inCart} in your cart · View cart
                </Button>
              )}
            </Box>
          </Box>
        </>
      )}
    </Box>
  );
}
