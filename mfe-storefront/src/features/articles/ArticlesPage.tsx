import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ContentPage } from '../../components/ContentPage';
import { SiteLink } from '../../components/SiteLink';
import { ARTICLES } from './articles';

export function ArticlesPage({ route }: PageProps) {
  return (
    <ContentPage title={route.title} lead={route.description} wide>
      <Typography variant="h2" sx={{ fontSize: { xs: '1.4rem', md: '1.6rem' }, mb: 3 }}>
        Guides
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {ARTICLES.map((article) => (
          <Box component="li" key={article.slug} sx={{ p: 3, borderRadius: 2, border: '1px solid', borderColor: 'divider' }}>
            <Typography component="h3" variant="h3" sx={{ mb: 1 }}>
              <SiteLink to={`/articles/${article.slug}`} underline="hover">
                {article.title}
              </SiteLink>
            </Typography>
            <Typography color="text.secondary" sx={{ mb: 1.5, lineHeight: 1.7 }}>
              {article.lead}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {article.readingMinutes} min read
            </Typography>
          </Box>
        ))}
      </Box>
    </ContentPage>
  );
}
