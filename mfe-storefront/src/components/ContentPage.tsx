import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import { PageIntro } from '@bimi/ui/PageIntro';

/** A text page: the page's h1 and lead, then a readable column of content. */
export function ContentPage({ title, lead, children, wide = false }: { title: string; lead?: string; children: ReactNode; wide?: boolean }) {
  return (
    <>
      <PageIntro title={title} lead={lead} />
      <Box sx={{ maxWidth: wide ? 1120 : 820, mx: 'auto', px: { xs: 2.5, md: 4 }, pb: { xs: 6, md: 10 }, mt: { xs: -1, md: -3 } }}>{children}</Box>
    </>
  );
}
