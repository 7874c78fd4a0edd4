import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** A page's heading block: the one h1 of the page and its lead paragraph. */
export function PageIntro({ title, lead, children }: { title: string; lead?: string; children?: ReactNode }) {
  return (
    <Box component="section" sx={{ maxWidth: 1120, mx: 'auto', px: { xs: 2.5, md: 4 }, py: { xs: 5, md: 8 } }}>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {lead && (
        <Typography variant="body1" color="text.secondary" sx={{ fontSize: { xs: 17, md: 19 }, maxWidth: 720 }}>
          {lead}
        </Typography>
      )}
      {children}
    </Box>
  );
}
