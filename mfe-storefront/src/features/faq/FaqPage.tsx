import Typography from '@mui/material/Typography';
import Box from '@mui/material/Box';
import type { PageProps } from '@bimi/ui/RouteTable';
import { CallToAction } from '../../components/CallToAction';
import { ContentPage } from '../../components/ContentPage';
import { FaqList } from '../../components/FaqList';
import { FAQ } from '../../content/faq';

export function FaqPage({ route }: PageProps) {
  return (
    <>
      <ContentPage title={route.title} lead="Short answers about BIMI, choosing between a VMC, CMC and GMC, validation, DMARC enforcement, renewals and refunds.">
        {FAQ.map((topic) => {
          const id = `faq-${topic.topic.toLowerCase().replace(/[^a-z]+/g, '-')}`;
          return (
            <Box component="section" key={topic.topic} aria-labelledby={id} sx={{ mb: 6 }}>
              <Typography id={id} variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.6rem' }, mb: 3 }}>
                {topic.topic}
              </Typography>
              <FaqList entries={topic.entries} />
            </Box>
          );
        })}
      </ContentPage>
      <CallToAction
        id="faq-cta-heading"
        heading="Didn’t find your answer?"
        text="Our specialists answer questions about your domain, your logo and your documents within one business day."
        primary={{ label: 'Ask a specialist', to: '/contact' }}
        secondary={{ label: 'Browse the help center', to: '/help-center' }}
      />
    </>
  );
}
