import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** A product overview page (the certificate comparison, the DMARC plans): its h1 and lead, then the page's content. */
export function ProductPageFrame({ title, lead, children }: { title: string; lead?: string; children: ReactNode }) {
  return (
    <Box sx={{ maxWidth: 1120, mx: 'auto', px: { xs: 2.5, md: 4 }, pt: { xs: 5, md: 8 }, pb: 8 }}>
      <Typography variant="h1" gutterBottom>
        {title}
      </Typography>
      {lead && (
        <Typography color="text.secondary" sx={{ fontSize: { xs: 17, md: 19 }, maxWidth: 720, mb: 4 }}>
          {lead}
        </Typography>
      )}
      {children}
    </Box>
  );
}
