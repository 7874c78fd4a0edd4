import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';

/** Shown while a remote's code arrives: a thin bar, a full screen tall so the footer stays below the fold and does not jump when the page arrives. */
export function PageLoading() {
  return (
    <Box aria-busy="true" aria-label="Loading page" sx={{ minHeight: '100vh' }}>
      <LinearProgress sx={{ height: 2 }} />
    </Box>
  );
}
