import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** A band of a page with its h2; `tone="tint"` sets it off from its neighbours. */
export function Section({ id, heading, intro, tone = 'plain', children }: { id: string; heading: string; intro?: string; tone?: 'plain' | 'tint'; children: ReactNode }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ bgcolor: tone === 'tint' ? '#f4f7fd' : undefined }}>
      <Box sx={{ maxWidth: 1120, mx: 'auto', px: { xs: 2.5, md: 4 }, py: { xs: 5, md: 8 } }}>
        <Typography id={id} variant="h2" sx={{ mb: intro ? 1.5 : 3 }}>
          {heading}
        </Typography>
        {intro && (
          <Typography color="text.secondary" sx={{ maxWidth: 720, mb: 3.5, fontSize: { xs: 16, md: 17 } }}>
            {intro}
          </Typography>
        )}
        {children}
      </Box>
    </Box>
  );
}
