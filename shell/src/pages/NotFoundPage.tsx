import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

export function NotFoundPage() {
  return (
    <Box data-testid="not-found" sx={{ textAlign: 'center', px: 3, py: { xs: 10, md: 16 } }}>
      <Typography variant="overline" color="primary">
        Error 404
      </Typography>
      <Typography variant="h1" gutterBottom>
        Page not found
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        The page you are looking for does not exist or has moved.
      </Typography>
      <Button component={RouterLink} to="/" variant="contained">
        Back to the home page
      </Button>
    </Box>
  );
}
