import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { brand } from '@bimi/ui/theme';

export interface CallToActionLink {
  label: string;
  to: string;
}

/** The closing band of a page: one question, one main action and an alternative. */
export function CallToAction({ id, heading, text, primary, secondary }: { id: string; heading: string; text: string; primary: CallToActionLink; secondary?: CallToActionLink }) {
  return (
    <Box component="section" aria-labelledby={id} sx={{ bgcolor: brand.navy, color: '#fff' }}>
      <Box sx={{ maxWidth: 1120, mx: 'auto', px: { xs: 2.5, md: 4 }, py: { xs: 5, md: 7 } }}>
        <Typography id={id} variant="h2" sx={{ mb: 1.5 }}>
          {heading}
        </Typography>
        <Typography sx={{ maxWidth: 680, mb: 3, color: '#dbe4f7', fontSize: { xs: 16, md: 18 } }}>{text}</Typography>
        <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap' }}>
          <Button component={RouterLink} to={primary.to} variant="contained" size="large" sx={{ bgcolor: '#fff', color: brand.navy, '&:hover': { bgcolor: brand.sky } }}>
            {primary.label}
          </Button>
          {secondary && (
            <Button
              component={RouterLink}
              to={secondary.to}
              variant="outlined"
              size="large"
              sx={{ color: '#fff', borderColor: 'rgba(255,255,255,0.7)', '&:hover': { borderColor: '#fff', bgcolor: 'rgba(255,255,255,0.08)' } }}
            >
              {secondary.label}
            </Button>
          )}
        </Box>
      </Box>
    </Box>
  );
}
