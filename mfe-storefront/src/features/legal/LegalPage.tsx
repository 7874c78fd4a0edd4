import Typography from '@mui/material/Typography';
import type { PageProps } from '@bimi/ui/RouteTable';
import { ContentPage } from '../../components/ContentPage';
import { ContentsList, LongDocumentView } from '../../components/LongDocumentView';
import { SiteLink } from '../../components/SiteLink';
import { POLICIES } from './policies';

/** /privacy-policy, /terms and /refund-policy: shown without the site header, so they link home themselves. */
export function LegalPage({ route }: PageProps) {
  const policy = POLICIES.find((candidate) => candidate.path === route.path);
  if (!policy) throw new Error(`No policy for ${route.path}`);
  return (
    <ContentPage title={policy.title} lead={policy.lead}>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 4 }}>
        Last updated {policy.updated} · <SiteLink to="/">BIMI Store home</SiteLink>
      </Typography>
      <ContentsList sections={policy.sections} />
      <LongDocumentView sections={policy.sections} />
      <Typography variant="body2" color="text.secondary">
        Related:{' '}
        {POLICIES.filter((other) => other !== policy).map((other, index) => (
          <span key={other.path}>
            {index > 0 && ' · '}
            <SiteLink to={other.path}>{other.title}</SiteLink>
          </span>
        ))}
      </Typography>
    </ContentPage>
  );
}
