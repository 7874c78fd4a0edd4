import type { ReactNode } from 'react';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';

/** One block of an account page: a titled card. */
export function SettingsCard({ title, lead, children, testId }: { title: string; lead?: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <Paper component="section" variant="outlined" aria-label={title} data-testid={testId} sx={{ p: { xs: 2.5, sm: 3 }, borderRadius: 3, mb: 3 }}>
      <Typography variant="h2" sx={{ fontSize: 20, fontWeight: 700, mb: lead ? 0.5 : 2 }}>
        {title}
      </Typography>
      {lead && (
        <Typography color="text.secondary" sx={{ mb: 2, fontSize: 15 }}>
          {lead}
        </Typography>
      )}
      {children}
    </Paper>
  );
}

/** The heading block of an account page (its one h1). */
export function AccountPageTitle({ title, lead }: { title: string; lead?: ReactNode }) {
  return (
    <>
      <Typography variant="h1" sx={{ fontSize: { xs: 28, md: 34 }, mb: lead ? 1 : 3 }}>
        {title}
      </Typography>
      {lead && (
        <Typography color="text.secondary" sx={{ mb: 3 }}>
          {lead}
        </Typography>
      )}
    </>
  );
}
