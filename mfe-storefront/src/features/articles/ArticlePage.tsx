import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ContentPage } from '../../components/ContentPage';
import { LongDocumentView } from '../../components/LongDocumentView';
import { SiteLink } from '../../components/SiteLink';
import { ARTICLES } from './articles';

/** /articles/<slug>: the article whose slug ends the route's path. */
export function ArticlePage({ route }: PageProps) {
  const article = ARTICLES.find((candidate) => route.path === `/articles/${candidate.slug}`);
  if (!article) throw new Error(`No article for ${route.path}`);
  return (
    <ContentPage title={article.title} lead={article.lead}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 4 }}>
        {article.readingMinutes} min read · <SiteLink to="/articles">All articles</SiteLink>
      </Typography>
      <LongDocumentView sections={article.sections} />
    </ContentPage>
  );
}
