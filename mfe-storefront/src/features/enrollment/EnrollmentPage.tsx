import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ContentPage } from '../../components/ContentPage';
import { LongDocumentView } from '../../components/LongDocumentView';
import { SiteLink } from '../../components/SiteLink';
import { ENROLLMENT_GUIDES, ENROLLMENT_STEPS } from './enrollment-guides';

/** /digicert-enrollment and its checklists; any other path under it shows the start page. */
export function EnrollmentPage({ route }: PageProps) {
  const guide = ENROLLMENT_GUIDES.find((candidate) => candidate.path === route.path);
  if (guide) {
    return (
      <ContentPage title={guide.title} lead={guide.lead}>
        <LongDocumentView sections={guide.sections} />
        <Typography>
          <SiteLink to="/digicert-enrollment">Back to enrollment</SiteLink>
          {' · '}
          <SiteLink to="/docs/Mark-Certificate-Validation-Guide.pdf">Mark Certificate Validation Guide (PDF)</SiteLink>
        </Typography>
      </ContentPage>
    );
  }
  return (
    <ContentPage
      title={route.title}
      lead="Enrollment is where you give DigiCert what it needs to validate your organization, your mark and your logo. Prepare with the checklist for your certificate, then follow the steps below."
    >
      <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.6rem' }, mb: 3 }}>
        Choose your checklist
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2, mb: 6 }}>
        {ENROLLMENT_GUIDES.map((checklist) => (
          <Box component="li" key={checklist.path} sx={{ p: 2.5, borderRadius: 2, border: '1px solid', borderColor: 'divider' }}>
            <Typography component="h3" variant="h3" sx={{ mb: 0.5 }}>
              <SiteLink to={checklist.path} underline="hover">
                {checklist.certificate}
              </SiteLink>
            </Typography>
            <Typography color="text.secondary">{checklist.summary}</Typography>
          </Box>
        ))}
      </Box>
      <LongDocumentView
        sections={[
          { heading: 'The enrollment steps', blocks: [ENROLLMENT_STEPS] },
          {
            heading: 'Already ordered?',
            blocks: [
              {
                kind: 'links',
                items: [
                  { label: 'Track your order and its validation status', to: '/account/orders' },
                  { label: 'Ask your specialist a question', to: '/account/support' },
                  { label: 'Mark Certificate Validation Guide (PDF)', to: '/docs/Mark-Certificate-Validation-Guide.pdf' },
                ],
              },
            ],
          },
        ]}
      />
    </ContentPage>
  );
}
