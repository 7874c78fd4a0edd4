import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ContentPage } from '../../components/ContentPage';
import { LongDocumentView } from '../../components/LongDocumentView';
import { SiteLink } from '../../components/SiteLink';
import { ENTRUST_GUIDES } from './entrust-guides';

/** One guide under /landing/entrust-to-digicert/, or, for any other path there, the list of guides. */
export function EntrustGuidePage({ route }: PageProps) {
  const guide = ENTRUST_GUIDES.find((candidate) => candidate.path === route.path);
  return guide ? (
    <ContentPage title={guide.title} lead={guide.lead}>
      <LongDocumentView sections={guide.sections} />
      <OtherGuides current={guide.path} />
    </ContentPage>
  ) : (
    <ContentPage
      title={route.title}
      lead="Entrust no longer issues or renews mark certificates. These guides take you from your Entrust VMC to a DigiCert certificate without losing your logo."
    >
      <OtherGuides />
    </ContentPage>
  );
}

function OtherGuides({ current }: { current?: string }) {
  return (
    <Box component="section" aria-labelledby="entrust-guides-heading" sx={{ mt: 4 }}>
      <Typography id="entrust-guides-heading" variant="h2" sx={{ fontSize: { xs: '1.3rem', md: '1.5rem' }, mb: 2 }}>
        {current ? 'More for Entrust customers' : 'Migration guides'}
      </Typography>
      <Box component="ul" sx={{ m: 0, pl: 2.5, '& li': { mb: 1.5 } }}>
        <li>
          <SiteLink to="/landing/entrust-to-digicert-vmc">Why and how to move your Entrust VMC to DigiCert</SiteLink>
        </li>
        {ENTRUST_GUIDES.filter((guide) => guide.path !== current).map((guide) => (
          <li key={guide.path}>
            <SiteLink to={guide.path}>{guide.title}</SiteLink>: {guide.summary}
          </li>
        ))}
      </Box>
      <Button component={RouterLink} to="/products/digicert-verified-mark-certificate" variant="contained" size="large" sx={{ mt: 2 }}>
        Order your DigiCert VMC
      </Button>
    </Box>
  );
}
