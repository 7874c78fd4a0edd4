import { useSearchParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CONTACT_LIMITS, CONTACT_TOPICS, type ContactTopic } from '@bimi/contracts/contact';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ContentPage } from '../../components/ContentPage';
import { SiteLink } from '../../components/SiteLink';
import { ContactForm } from './ContactForm';

const isTopic = (value: string | null): value is ContactTopic => CONTACT_TOPICS.some((topic) => topic.value === value);

export function ContactPage({ route }: PageProps) {
  // Links such as the account's "Schedule a call" open the form on their topic: /contact?topic=call.
  const [params] = useSearchParams();
  const topic = params.get('topic');
  // …and the configurator's "Talk to sales" also writes the configuration into the message.
  const message = params.get('message')?.slice(0, CONTACT_LIMITS.messageMax) ?? undefined;
  return (
    <ContentPage title={route.title} lead="Questions about a certificate, your validation documents or DMARC? Write to our specialists: we answer by email within one business day." wide>
      <Box sx={{ display: 'grid', gap: { xs: 5, md: 8 }, gridTemplateColumns: { xs: '1fr', md: '1.6fr 1fr' }, alignItems: 'start' }}>
        <Box component="section" aria-labelledby="contact-form-heading">
          <Typography id="contact-form-heading" variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.6rem' }, mb: 3 }}>
            Send us a message
          </Typography>
          <ContactForm initialTopic={isTopic(topic) ? topic : undefined} initialMessage={message} />
        </Box>
        <Box component="aside" aria-labelledby="contact-other-heading" sx={{ p: 3, borderRadius: 2, bgcolor: '#f4f7fd' }}>
          <Typography id="contact-other-heading" variant="h2" sx={{ fontSize: '1.25rem', mb: 2 }}>
            Other ways to get answers
          </Typography>
          <Typography sx={{ mb: 2, lineHeight: 1.7 }}>
            Customers with an order get the fastest answer from a support ticket in their account, where we can see the order and its validation status.
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 2.5, '& li': { mb: 1 } }}>
            <li>
              <SiteLink to="/account/support">Open a support ticket</SiteLink>
            </li>
            <li>
              <SiteLink to="/help-center">Help center</SiteLink>
            </li>
            <li>
              <SiteLink to="/faq">Frequently asked questions</SiteLink>
            </li>
            <li>
              <SiteLink to="/docs/Mark-Certificate-Validation-Guide.pdf">Mark Certificate Validation Guide (PDF)</SiteLink>
            </li>
          </Box>
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
            Specialists are available Monday to Friday, 8:00 to 18:00 US Eastern time. We use what you send only to answer you; see our{' '}
            <SiteLink to="/privacy-policy">privacy policy</SiteLink>.
          </Typography>
        </Box>
      </Box>
    </ContentPage>
  );
}
