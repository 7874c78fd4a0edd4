import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';

export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Box
      component={RouterLink}
      to="/"
      aria-label="BIMI Store home"
      sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, color: 'secondary.main', textDecoration: 'none', fontWeight: 800, fontSize: 20 }}
    >
      <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#1746c7" />
        <path d="M9 17l5 5 9-11" stroke="#fff" strokeWidth="3.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {!compact && <span>BIMI Store</span>}
    </Box>
  );
}
