import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';

export function RegistryUnavailablePage() {
  return (
    <Box role="alert" sx={{ textAlign: 'center', px: 3, py: { xs: 10, md: 16 } }}>
      <Typography variant="h1" gutterBottom>
        We could not load this page
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 4 }}>
        The site is having trouble right now. Please try again in a moment.
      </Typography>
      <Button variant="contained" onClick={() => window.location.reload()}>
        Retry
      </Button>
    </Box>
  );
}
