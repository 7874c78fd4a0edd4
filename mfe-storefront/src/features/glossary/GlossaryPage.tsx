import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ContentPage } from '../../components/ContentPage';
import { GLOSSARY } from './glossary';

const anchor = (term: string) =>
  term
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function GlossaryPage({ route }: PageProps) {
  return (
    <ContentPage title={route.title} lead="Plain definitions of the terms you meet when you set up BIMI, order a mark certificate or move your domain to DMARC enforcement.">
      <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.6rem' }, mb: 3 }}>
        Terms from A to Z
      </Typography>
      <Box component="dl" sx={{ m: 0 }}>
        {GLOSSARY.map((entry) => (
          <Box key={entry.term} id={anchor(entry.term)} sx={{ pb: 2.5, mb: 2.5, borderBottom: '1px solid', borderColor: 'divider', scrollMarginTop: 96 }}>
            <Typography component="dt" sx={{ fontWeight: 700, fontSize: '1.1rem' }}>
              {entry.term}
              {entry.expansion && (
                <Typography component="span" color="text.secondary" sx={{ fontWeight: 400 }}>
                  {` (${entry.expansion})`}
                </Typography>
              )}
            </Typography>
            <Typography component="dd" sx={{ m: 0, mt: 0.75, lineHeight: 1.7 }}>
              {entry.definition}
            </Typography>
          </Box>
        ))}
      </Box>
    </ContentPage>
  );
}
