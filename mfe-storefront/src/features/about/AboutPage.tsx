import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CallToAction } from '../../components/CallToAction';
import { ContentPage } from '../../components/ContentPage';

const VALUES = [
  {
    title: 'Standards first',
    text: 'We follow the BIMI specification and the Mark Certificate Requirements to the letter, and we explain them in plain words rather than selling shortcuts that mailboxes reject.',
  },
  {
    title: 'People who answer',
    text: 'Every order has a named specialist who prepares your documents with you and chases the validation team, so you never wait without knowing why.',
  },
  {
    title: 'Security before logos',
    text: 'A logo is the reward for protecting your domain. We start with DMARC enforcement, because it stops phishing in your name whether or not a mailbox shows your brand.',
  },
];

export function AboutPage({ route }: PageProps) {
  return (
    <>
      <ContentPage title={route.title} lead="BIMI Store helps companies and public agencies put a verified brand in the inbox, and protect their domains on the way there.">
        <Typography variant="h2" sx={{ mb: 2 }}>
          What we do
        </Typography>
        <Typography sx={{ mb: 2, lineHeight: 1.7 }}>
          We are an authorized reseller of DigiCert mark certificates and of EasyDMARC enforcement plans. Our customers range from regional credit unions and online shops to airlines,
          universities and state agencies. What they have in common is that their customers receive email from them every day, and criminals send email pretending to be them.
        </Typography>
        <Typography sx={{ mb: 2, lineHeight: 1.7 }}>
          Brand Indicators for Message Identification (BIMI) turns good email authentication into something recipients can see: your logo beside your messages, and in Gmail a verified
          checkmark. Getting there involves DNS records, a specific logo format and a validation process with notarized documents. We make that process short and predictable: we check your
          domain before you buy, tell you which certificate fits your mark, prepare the paperwork with you and stay with you through every yearly renewal.
        </Typography>
        <Typography variant="h2" sx={{ mt: 5, mb: 2 }}>
          How we work
        </Typography>
        <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2.5 }}>
          {VALUES.map((value) => (
            <Box component="li" key={value.title} sx={{ p: 3, borderRadius: 2, border: '1px solid', borderColor: 'divider' }}>
              <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
                {value.title}
              </Typography>
              <Typography color="text.secondary" sx={{ lineHeight: 1.7 }}>
                {value.text}
              </Typography>
            </Box>
          ))}
        </Box>
        <Typography variant="h2" sx={{ mt: 5, mb: 2 }}>
          Our free tools
        </Typography>
        <Typography sx={{ lineHeight: 1.7 }}>
          The BIMI checker, VMC validator and DMARC inspector on this site are free for anyone, and signed-in customers get record generators, lookups and domain monitors that watch how
          their domain and logo appear in supporting mailboxes. We built them for our own specialists first; they are the same tools we use to review your domain.
        </Typography>
      </ContentPage>
      <CallToAction
        id="about-cta-heading"
        heading="Talk to us"
        text="Tell us about your domains and your logo; a specialist answers within one business day."
        primary={{ label: 'Contact us', to: '/contact' }}
        secondary={{ label: 'How it works', to: '/how-it-works' }}
      />
    </>
  );
}
