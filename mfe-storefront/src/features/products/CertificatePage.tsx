import { useState } from 'react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Typography from '@mui/material/Typography';
import CheckCircleOutlined from '@mui/icons-material/CheckCircleOutlined';
import { VALIDATION_TIME } from '@bimi/catalog/facts';
import { certificatePlanCents, formatUsd } from '@bimi/catalog/prices';
import type { CertificateId } from '@bimi/catalog/products';
import type { PageProps } from '@bimi/ui/RouteTable';
import { StaticRegion } from '@bimi/ui/StaticRegion';
import { CertificateConfigurator } from './CertificateConfigurator';
import { CERTIFICATE_COPY, validationSteps } from './certificate-copy';

const sectionSx = { maxWidth: 1120, mx: 'auto', px: { xs: 2.5, md: 4 } } as const;

function ProductHero({ title, lead, fromCents }: { title: string; lead?: string; fromCents: number }) {
  return (
    <Box component="section" sx={{ ...sectionSx, pt: { xs: 5, md: 8 }, pb: 4 }}>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {lead && (
        <Typography color="text.secondary" sx={{ fontSize: { xs: 17, md: 19 }, maxWidth: 720 }}>
          {lead}
        </Typography>
      )}
      <Typography sx={{ mt: 2, fontWeight: 600 }}>From {formatUsd(fromCents)} a year per domain</Typography>
      <Box sx={{ display: 'flex', gap: 2, mt: 3, flexWrap: 'wrap' }}>
        <Button href="#configure" variant="contained" size="large" data-testid="theme-probe">
          Configure and buy
        </Button>
        <Button component={RouterLink} to="/products/digicert-mark-certificates" variant="outlined" size="large">
          Compare certificates
        </Button>
      </Box>
    </Box>
  );
}

function CertificateDetails({ productId }: { productId: CertificateId }) {
  const copy = CERTIFICATE_COPY[productId];
  return (
    <Box component="section" sx={{ ...sectionSx, py: 5, display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: { xs: 4, md: 6 } }}>
      <Box>
        <Typography component="h2" variant="h2" gutterBottom>
          What it is for
        </Typography>
        <Typography color="text.secondary">{copy.whatItIs}</Typography>
        <Typography component="h2" variant="h2" sx={{ mt: 4 }} gutterBottom>
          Who can buy it
        </Typography>
        <Box component="ul" sx={{ pl: 2.5, m: 0, color: 'text.secondary', '& li': { mb: 1 } }}>
          {copy.whoMayBuy.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </Box>
        <Typography component="h2" variant="h2" sx={{ mt: 4 }} gutterBottom>
          Where your logo shows
        </Typography>
        <Box component="ul" sx={{ pl: 0, m: 0, listStyle: 'none' }}>
          {copy.mailboxes.map((mailbox) => (
            <Box component="li" key={mailbox} sx={{ display: 'flex', gap: 1, alignItems: 'center', mb: 0.5 }}>
              <CheckCircleOutlined color="success" fontSize="small" /> {mailbox}
            </Box>
          ))}
        </Box>
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          {copy.checkmark
            ? 'Gmail also shows a blue verified checkmark beside your name.'
            : 'Gmail shows the logo without the blue verified checkmark, which needs a Verified Mark Certificate.'}
        </Typography>
      </Box>
      <Box>
        <Typography component="h2" variant="h2" gutterBottom>
          How validation works
        </Typography>
        <Box component="ol" sx={{ pl: 0, m: 0, listStyle: 'none', counterReset: 'step' }}>
          {validationSteps(productId).map((step, index) => (
            <Box component="li" key={step.title} sx={{ display: 'flex', gap: 2, mb: 2.5 }}>
              <Box sx={{ flex: '0 0 32px', height: 32, borderRadius: '50%', bgcolor: 'primary.main', color: '#fff', display: 'grid', placeItems: 'center', fontWeight: 700 }}>
                {index + 1}
              </Box>
              <Box>
                <Typography sx={{ fontWeight: 600 }}>{step.title}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {step.detail}
                </Typography>
              </Box>
            </Box>
          ))}
        </Box>
        <Typography color="text.secondary" data-testid="validation-time">
          {VALIDATION_TIME}
        </Typography>
      </Box>
    </Box>
  );
}

/**
 * The cart drawer's Edit links here with the line's options and `edit={uniqueId}`; when the page is
 * already open the router keeps it mounted, so the configuration is keyed on the line being edited
 * and starts again from the link's options.
 */
function useEditKey(): string {
  const [searchParams] = useSearchParams();
  return searchParams.get('edit') ?? 'new';
}

function CertificateProductPage({ route, productId }: PageProps & { productId: CertificateId }) {
  const editKey = useEditKey();
  // Only the configurator answers taps: the text around it keeps the server's markup (issue 34).
  return (
    <Box sx={{ pb: 8 }}>
      <StaticRegion>
        <ProductHero title={route.title} lead={route.description} fromCents={certificatePlanCents(productId, 1)} />
      </StaticRegion>
      <Box component="section" id="configure" sx={{ ...sectionSx, scrollMarginTop: 80 }}>
        <CertificateConfigurator key={editKey} productId={productId} />
      </Box>
      <StaticRegion>
        <CertificateDetails productId={productId} />
      </StaticRegion>
    </Box>
  );
}

export function VerifiedMarkPage(props: PageProps) {
  return <CertificateProductPage {...props} productId="verified-mark-certificate" />;
}

export function GovernmentMarkPage(props: PageProps) {
  return <CertificateProductPage {...props} productId="government-mark-certificate" />;
}

/** The common mark page also sells the modified registered mark variant (spec §1): `?mark=modified` preselects it. */
export function CommonMarkPage(props: PageProps) {
  return <CommonMarkContent key={useEditKey()} {...props} />;
}

function CommonMarkContent({ route }: PageProps) {
  const [searchParams] = useSearchParams();
  const [productId, setProductId] = useState<CertificateId>(searchParams.get('mark') === 'modified' ? 'modified-registered-mark' : 'common-mark-certificate');
  return (
    <Box sx={{ pb: 8 }}>
      {/* Its details follow the mark chosen: only the hero is static. */}
      <StaticRegion>
        <ProductHero title={route.title} lead={route.description} fromCents={certificatePlanCents('common-mark-certificate', 1)} />
      </StaticRegion>
      <Box component="section" id="configure" sx={{ ...sectionSx, scrollMarginTop: 80 }}>
        <Box sx={{ mb: 3 }}>
          <Typography id="mark-kind" component="h2" variant="h3" gutterBottom>
            Which mark is your logo?
          </Typography>
          <RadioGroup aria-labelledby="mark-kind" value={productId} onChange={(event) => setProductId(event.target.value as CertificateId)}>
            <FormControlLabel value="common-mark-certificate" control={<Radio />} label="Prior use mark: shown on our website for at least 12 months, not a registered trademark" />
            <FormControlLabel value="modified-registered-mark" control={<Radio />} label="Modified registered mark: a changed version of our registered trademark" />
          </RadioGroup>
        </Box>
        <CertificateConfigurator productId={productId} />
      </Box>
      <CertificateDetails productId={productId} />
    </Box>
  );
}
