import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { PageIntro } from '@bimi/ui/PageIntro';
import type { PageProps } from '@bimi/ui/RouteTable';

export function ProductPage({ route }: PageProps) {
  return (
    <PageIntro title={route.title} lead={route.description}>
      <Box sx={{ display: 'flex', gap: 2, mt: 4, flexWrap: 'wrap' }}>
        <Button component={RouterLink} to="/checkout" variant="contained" size="large" data-testid="theme-probe">
          Go to checkout
        </Button>
        <Button component={RouterLink} to="/how-it-works" variant="outlined" size="large">
          How it works
        </Button>
      </Box>
    </PageIntro>
  );
}
