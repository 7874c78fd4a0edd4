import type { ReactNode } from 'react';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { PageIntro } from '@bimi/ui/PageIntro';
import { StaticRegion } from '@bimi/ui/StaticRegion';

export interface AboutSection {
  heading: string;
  body: ReactNode;
}

/**
 * The frame every tool page shares: the heading and lead, the tool itself, then plain-words
 * explanations of the record (what it is, why BIMI needs it). Inside the account area a link
 * leads back to the tools index.
 */
export function ToolPage({ title, lead, about, children }: { title: string; lead: string; about: readonly AboutSection[]; children: ReactNode }) {
  const inAccount = useLocation().pathname.startsWith('/account/');
  return (
    <PageIntro title={title} lead={lead}>
      {inAccount && (
        <Link component={RouterLink} to="/account/tools" sx={{ display: 'inline-block', mt: 1.5, fontSize: 15 }}>
          ← All tools
        </Link>
      )}
      {children}
      {/* Text: kept as the server drew it, not hydrated (issue 34). */}
      <StaticRegion>
        <Box component="section" aria-label={`About the ${title}`} sx={{ mt: 7, display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
          {about.map((section) => (
            <Box key={section.heading}>
              <Typography variant="h3" component="h2" gutterBottom>
                {section.heading}
              </Typography>
              <Typography component="div" color="text.secondary" sx={{ '& p': { m: 0, mb: 1.5 }, '& code': { fontSize: 14 } }}>
                {section.body}
              </Typography>
            </Box>
          ))}
        </Box>
      </StaticRegion>
    </PageIntro>
  );
}
