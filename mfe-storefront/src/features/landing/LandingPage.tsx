import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { certificatePlanCents, certificateYearlyCents, formatUsd } from '@bimi/catalog/prices';
import type { PageProps } from '@bimi/ui/RouteTable';
import { brand } from '@bimi/ui/theme';
import { CallToAction } from '../../components/CallToAction';
import { FaqList } from '../../components/FaqList';
import { Section } from '../../components/Section';
import { faqEntry } from '../../content/faq';
import { LANDINGS } from './landings';

const cardSx = { p: 3, borderRadius: 2, border: '1px solid', borderColor: 'divider', bgcolor: 'background.paper' } as const;

export function LandingPage({ route }: PageProps) {
  const landing = LANDINGS.find((candidate) => candidate.path === route.path);
  if (!landing) throw new Error(`No landing page for ${route.path}`);
  const yearly = formatUsd(certificatePlanCents(landing.productId, 1));
  const threeYearsPerYear = formatUsd(certificateYearlyCents(landing.productId, 3));
  return (
    <>
      <Box component="section" aria-labelledby="landing-heading" sx={{ background: `linear-gradient(180deg, ${brand.sky} 0%, #ffffff 100%)` }}>
        <Box sx={{ maxWidth: 1120, mx: 'auto', px: { xs: 2.5, md: 4 }, pt: { xs: 5, md: 8 }, pb: { xs: 6, md: 8 } }}>
          <Typography variant="overline" component="p" sx={{ fontWeight: 700, color: brand.blue, letterSpacing: 1.2 }}>
            {landing.eyebrow}
          </Typography>
          <Typography id="landing-heading" variant="h1" sx={{ fontSize: { xs: '2rem', md: '2.9rem' }, maxWidth: 860, mb: 2 }}>
            {landing.heading}
          </Typography>
          <Typography color="text.secondary" sx={{ fontSize: { xs: 17, md: 19 }, maxWidth: 720, mb: 3 }}>
            {landing.lead}
          </Typography>
          <Typography sx={{ mb: 3 }}>
            From <strong>{yearly}</strong> a year per domain, or {threeYearsPerYear} a year on a three-year plan.
          </Typography>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
            <Button component={RouterLink} to={landing.productPath} variant="contained" size="large">
              Choose your plan
            </Button>
            <Button component={RouterLink} to="/contact?topic=sales" variant="outlined" size="large">
              Talk to a specialist
            </Button>
          </Box>
        </Box>
      </Box>

      <Section id="benefits-heading" heading="Why it matters">
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {landing.benefits.map((benefit) => (
            <Box component="li" key={benefit.title} sx={cardSx}>
              <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
                {benefit.title}
              </Typography>
              <Typography color="text.secondary">{benefit.text}</Typography>
            </Box>
          ))}
        </Box>
      </Section>

      <Section id="requirements-heading" heading="What you need" tone="tint">
        <Box sx={{ display: 'grid', gap: { xs: 4, md: 6 }, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
          <Box component="ul" sx={{ m: 0, pl: 2.5, '& li': { mb: 1.25, lineHeight: 1.65 } }}>
            {landing.requirements.map((requirement) => (
              <li key={requirement}>{requirement}</li>
            ))}
          </Box>
          <Box>
            <Typography component="h3" variant="h3" sx={{ mb: 1.5 }}>
              How it goes
            </Typography>
            <Box component="ol" sx={{ m: 0, pl: 2.5, '& li': { mb: 1.25, lineHeight: 1.65 } }}>
              {landing.steps.map((step) => (
                <li key={step}>{step}</li>
              ))}
            </Box>
          </Box>
        </Box>
      </Section>

      <Section id="landing-faq-heading" heading="Questions">
        <Box sx={{ maxWidth: 820 }}>
          <FaqList entries={landing.faqIds.map(faqEntry)} />
        </Box>
      </Section>

      <CallToAction
        id="landing-cta-heading"
        heading="Ready when you are"
        text="Order online in a few minutes; a specialist contacts you the same business day to start validation."
        primary={{ label: 'Choose your plan', to: landing.productPath }}
        secondary={{ label: 'Read the validation steps', to: '/how-it-works' }}
      />
    </>
  );
}
