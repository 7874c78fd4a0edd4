import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CallToAction } from '../../components/CallToAction';
import { ContentPage } from '../../components/ContentPage';
import { FaqList } from '../../components/FaqList';
import { SiteLink } from '../../components/SiteLink';
import { faqEntry } from '../../content/faq';

const TOPICS = [
  {
    heading: 'Getting started',
    text: 'What BIMI is, what you need before your logo can appear, and the words you will meet on the way.',
    links: [
      { label: 'How BIMI and mark certificates work', to: '/how-it-works' },
      { label: 'What is BIMI?', to: '/articles/what-is-bimi' },
      { label: 'Email authentication glossary', to: '/glossary' },
    ],
  },
  {
    heading: 'Choosing and ordering',
    text: 'Which certificate fits your mark, what it costs, and how multi-year plans work.',
    links: [
      { label: 'Compare mark certificates', to: '/products/digicert-mark-certificates' },
      { label: 'VMC or CMC: which do you need?', to: '/articles/vmc-vs-cmc' },
      { label: 'Frequently asked questions', to: '/faq' },
    ],
  },
  {
    heading: 'Validation and documents',
    text: 'The checks the certificate authority makes, the documents to prepare and how notarization works.',
    links: [
      { label: 'Mark Certificate Validation Guide (PDF)', to: '/docs/Mark-Certificate-Validation-Guide.pdf' },
      { label: 'DigiCert enrollment: documents per certificate', to: '/digicert-enrollment' },
      { label: 'Moving from an Entrust certificate', to: '/landing/entrust-to-digicert-vmc' },
    ],
  },
  {
    heading: 'DMARC, SPF and DKIM',
    text: 'Reaching DMARC enforcement safely, the prerequisite for every BIMI logo.',
    links: [
      { label: 'Getting to DMARC enforcement without losing mail', to: '/articles/dmarc-enforcement-for-bimi' },
      { label: 'DMARC inspector', to: '/dmarc-inspector' },
      { label: 'DMARC enforcement plans', to: '/products/easydmarc-enforcement' },
    ],
  },
  {
    heading: 'Logo and BIMI record',
    text: 'Preparing an SVG Tiny PS logo, publishing the record and checking it.',
    links: [
      { label: 'Preparing your logo in SVG Tiny PS', to: '/articles/svg-tiny-ps-logo' },
      { label: 'BIMI checker', to: '/bimi-checker' },
      { label: 'VMC validator', to: '/vmc-validator' },
    ],
  },
  {
    heading: 'Billing and policies',
    text: 'Payments, renewals, refunds and how we handle your data.',
    links: [
      { label: 'Refund policy', to: '/refund-policy' },
      { label: 'Terms of service', to: '/terms' },
      { label: 'Privacy policy', to: '/privacy-policy' },
    ],
  },
];

export function HelpCenterPage({ route }: PageProps) {
  return (
    <>
      <ContentPage title={route.title} lead={route.description} wide>
        <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.6rem' }, mb: 3 }}>
          Browse by topic
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: 'repeat(3, 1fr)' } }}>
          {TOPICS.map((topic) => (
            <Box component="li" key={topic.heading} sx={{ p: 3, borderRadius: 2, border: '1px solid', borderColor: 'divider' }}>
              <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
                {topic.heading}
              </Typography>
              <Typography color="text.secondary" sx={{ mb: 2 }}>
                {topic.text}
              </Typography>
              <Box component="ul" sx={{ m: 0, pl: 2.5, '& li': { mb: 0.75 } }}>
                {topic.links.map((link) => (
                  <li key={link.to}>
                    <SiteLink to={link.to}>{link.label}</SiteLink>
                  </li>
                ))}
              </Box>
            </Box>
          ))}
        </Box>
        <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.6rem' }, mt: 7, mb: 3 }}>
          Popular questions
        </Typography>
        <Box sx={{ maxWidth: 820 }}>
          <FaqList entries={['how-long-until-logo', 'pending-trademark', 'svg-format', 'refunds'].map(faqEntry)} />
        </Box>
      </ContentPage>
      <CallToAction
        id="help-cta-heading"
        heading="Still need help?"
        text="Customers can open a ticket from Support in their account. Everyone else can write to us; we answer within one business day."
        primary={{ label: 'Contact us', to: '/contact' }}
        secondary={{ label: 'Sign in for support', to: '/account/support' }}
      />
    </>
  );
}
