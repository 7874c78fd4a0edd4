import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { CERTIFICATES, DOMAINS_PER_CERTIFICATE, dmarcPlanSummary } from '@bimi/catalog/facts';
import { certificatePlanCents, DMARC_OPTIONS, formatUsd } from '@bimi/catalog/prices';
import type { CertificateId } from '@bimi/catalog/products';
import type { PageProps } from '@bimi/ui/RouteTable';
import { brand, VISUALLY_HIDDEN } from '@bimi/ui/theme';
import { CallToAction } from '../../components/CallToAction';
import { FaqList } from '../../components/FaqList';
import { Section } from '../../components/Section';
import { SiteLink } from '../../components/SiteLink';
import { faqEntry } from '../../content/faq';
import { InboxPreview } from './InboxPreview';

/** What the home page says about each of the four certificates; the set and their names are the catalog's (CERTIFICATES). */
const LINEUP_COPY: Record<CertificateId, { who: string; text: string }> = {
  'verified-mark-certificate': { who: 'For a registered trademark', text: 'Your logo in Gmail, Apple Mail and Yahoo, and the blue verified checkmark in Gmail.' },
  'common-mark-certificate': { who: 'For a logo used for a year or more', text: 'No trademark registration needed: prior use on your website is enough for Gmail.' },
  'modified-registered-mark': {
    who: 'For a changed version of your trademark',
    text: 'New colours, a simpler shape or added elements: shown in Gmail, issued as a Common Mark Certificate.',
  },
  'government-mark-certificate': { who: 'For federal, state and local agencies', text: 'Show an official seal or logo that is established by law rather than registered.' },
};

const LINEUP = CERTIFICATES.map((certificate) => ({
  ...certificate,
  ...LINEUP_COPY[certificate.id],
  from: `${formatUsd(certificatePlanCents(certificate.id, 1))} a year`,
}));

const STEPS = [
  {
    title: 'Enforce DMARC',
    text: 'Authenticate your mail with SPF and DKIM and publish a DMARC policy of quarantine or reject, so nobody else can send as your domain.',
  },
  {
    title: 'Get a mark certificate',
    text: 'DigiCert verifies your organization, your trademark or prior use, and your logo in SVG Tiny PS format, then issues a VMC, CMC or GMC.',
  },
  {
    title: 'Publish your BIMI record',
    text: 'Host the logo and certificate, add one DNS TXT record at default._bimi, and supporting mailboxes show your logo beside your messages.',
  },
];

const TOOLS = [
  { to: '/bimi-checker', name: 'BIMI checker', text: 'Checks your BIMI record, logo format and certificate in one pass.' },
  { to: '/vmc-validator', name: 'VMC validator', text: 'Reads a mark certificate: issuer, validity, domains and the embedded logo.' },
  { to: '/dmarc-inspector', name: 'DMARC inspector', text: 'Shows whether your DMARC policy is strict enough for BIMI, and what to change.' },
];

const cardSx = { p: 3, borderRadius: 2, border: '1px solid', borderColor: 'divider', bgcolor: 'background.paper' } as const;

export function HomePage({ route }: PageProps) {
  return (
    <>
      <Box component="section" aria-labelledby="home-heading" sx={{ background: `linear-gradient(180deg, ${brand.sky} 0%, #ffffff 100%)` }}>
        <Box
          sx={{
            maxWidth: 1120,
            mx: 'auto',
            px: { xs: 2.5, md: 4 },
            pt: { xs: 12, md: 16 },
            pb: { xs: 6, md: 9 },
            display: 'grid',
            gap: { xs: 5, md: 6 },
            gridTemplateColumns: { xs: '1fr', md: '1.15fr 0.85fr' },
            alignItems: 'center',
          }}
        >
          <Box>
            <Typography variant="overline" component="p" sx={{ fontWeight: 700, color: brand.blue, letterSpacing: 1.2 }}>
              BIMI mark certificates
            </Typography>
            <Typography id="home-heading" variant="h1" sx={{ fontSize: { xs: '2.1rem', md: '3.1rem' }, mb: 2 }}>
              Put your logo next to every email you send
            </Typography>
            <Typography color="text.secondary" sx={{ fontSize: { xs: 17, md: 20 }, maxWidth: 620, mb: 4 }}>
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
          <InboxPreview />
        </Box>
      </Box>

      <Section
        id="lineup-heading"
        heading="Choose the certificate for your mark"
        intro={`Every certificate is issued by DigiCert. ${DOMAINS_PER_CERTIFICATE} Prices are per domain for a one-year plan; two- and three-year plans cost less per year.`}
      >
        <Box
          component="ul"
          data-testid="certificate-lineup"
          sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(4, 1fr)' } }}
        >
          {LINEUP.map((product) => (
            <Box component="li" key={product.id} data-testid={`lineup-${product.id}`} sx={{ ...cardSx, display: 'flex', flexDirection: 'column' }}>
              <Typography component="h3" variant="h3" sx={{ mb: 0.5 }}>
                {product.name}
              </Typography>
              <Typography variant="body2" sx={{ fontWeight: 600, color: brand.blue, mb: 1.5 }}>
                {product.who}
              </Typography>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2, flexGrow: 1 }}>
                {product.text}
              </Typography>
              <Typography sx={{ mb: 2 }}>
                from <strong>{product.from}</strong>
              </Typography>
              <SiteLink to={product.path} sx={{ fontWeight: 600 }}>
                Details<Box component="span" sx={VISUALLY_HIDDEN}>{` about the ${product.name}`}</Box>
              </SiteLink>
            </Box>
          ))}
        </Box>
      </Section>

      <Section id="steps-heading" heading="How BIMI works, in three steps" tone="tint">
        <Box component="ol" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {STEPS.map((step, index) => (
            <Box component="li" key={step.title} sx={cardSx}>
              <Box aria-hidden sx={{ width: 36, height: 36, borderRadius: '50%', bgcolor: brand.blue, color: '#fff', display: 'grid', placeItems: 'center', fontWeight: 700, mb: 1.5 }}>
                {index + 1}
              </Box>
              <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
                {step.title}
              </Typography>
              <Typography color="text.secondary">{step.text}</Typography>
            </Box>
          ))}
        </Box>
        <Typography sx={{ mt: 3 }}>
          <SiteLink to="/how-it-works">Read the full walkthrough</SiteLink>
          {' · '}
          <SiteLink to="/docs/Mark-Certificate-Validation-Guide.pdf">Download the validation guide (PDF)</SiteLink>
        </Typography>
      </Section>

      <Section
        id="dmarc-heading"
        heading="Not at DMARC enforcement yet?"
        intro="BIMI only works when your domain's DMARC policy is quarantine or reject. Our DMARC plans find every service that sends as you, fix its SPF and DKIM, and move your policy to enforcement step by step."
      >
        <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, maxWidth: 820 }}>
          <Box sx={cardSx}>
            <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
              DMARC Plus
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 1.5 }} data-testid="home-dmarc-plus-limits">
              {dmarcPlanSummary('dmarc-plus')}
            </Typography>
            <Typography>
              from <strong>{formatUsd(DMARC_OPTIONS['dmarc-plus'][0]!.price)} a month</strong>
            </Typography>
          </Box>
          <Box sx={cardSx}>
            <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
              DMARC Premium
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 1.5 }} data-testid="home-dmarc-premium-limits">
              {dmarcPlanSummary('dmarc-premium')}
            </Typography>
            <Typography>
              from <strong>{formatUsd(DMARC_OPTIONS['dmarc-premium'][0]!.price)} a month</strong>
            </Typography>
          </Box>
        </Box>
        <Button component={RouterLink} to="/products/easydmarc-enforcement" variant="outlined" sx={{ mt: 3 }}>
          Compare DMARC plans
        </Button>
      </Section>

      <Section id="tools-heading" heading="Free tools to check your domain" tone="tint">
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {TOOLS.map((tool) => (
            <Box component="li" key={tool.to} sx={cardSx}>
              <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
                <SiteLink to={tool.to} underline="hover">
                  {tool.name}
                </SiteLink>
              </Typography>
              <Typography color="text.secondary">{tool.text}</Typography>
            </Box>
          ))}
        </Box>
      </Section>

      <Section id="faq-heading" heading="Questions we hear most">
        <Box sx={{ maxWidth: 820 }}>
          <FaqList entries={['what-is-bimi', 'which-mailboxes', 'vmc-or-cmc', 'dmarc-requirement'].map(faqEntry)} />
          <Typography sx={{ mt: 3 }}>
            <SiteLink to="/faq">All frequently asked questions</SiteLink>
          </Typography>
        </Box>
      </Section>

      <CallToAction
        id="home-cta-heading"
        heading="Ready to show your logo in the inbox?"
        text="Order your certificate today and our team guides you through validation, or ask a specialist which certificate fits your mark."
        primary={{ label: 'Buy a mark certificate', to: '/products/digicert-mark-certificates' }}
        secondary={{ label: 'Talk to a specialist', to: '/contact' }}
      />
    </>
  );
}
