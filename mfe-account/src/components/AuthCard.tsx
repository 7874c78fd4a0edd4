import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** The frame of every authentication page: one card, the page's h1, a lead line. */
export function AuthCard({ title, lead, children, footer }: { title: string; lead?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <Box sx={{ px: 2, py: { xs: 4, md: 8 }, display: 'flex', justifyContent: 'center' }}>
      <Box sx={{ width: '100%', maxWidth: 460 }}>
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 4 }, borderRadius: 3 }}>
          <Typography variant="h1" sx={{ fontSize: { xs: 28, sm: 32 }, mb: lead ? 1 : 3 }}>
            {title}
          </Typography>
          {lead && (
            <Typography color="text.secondary" sx={{ mb: 3 }}>
              {lead}
            </Typography>
          )}
          {children}
        </Paper>
        {footer && <Box sx={{ mt: 2.5, textAlign: 'center', color: 'text.secondary' }}>{footer}</Box>}
      </Box>
    </Box>
  );
}
