import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';

/** Shown while a remote's code arrives: a thin bar that keeps the page from jumping. */
export function PageLoading() {
  return (
    <Box aria-busy="true" aria-label="Loading page" sx={{ minHeight: '60vh' }}>
      <LinearProgress sx={{ height: 2 }} />
    </Box>
  );
}
