import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import { keyframes } from '@emotion/react';

/** The bar moves by transform only: MUI's LinearProgress animates left and right, a layout shift each frame (issue 14: CLS 0). */
const sweep = keyframes({ from: { transform: 'translateX(-100%)' }, to: { transform: 'translateX(250%)' } });

/** Shown while a remote's code arrives: a thin bar, a full screen tall so the footer stays below the fold and does not jump when the page arrives. */
export function PageLoading() {
  return (
    <Box aria-busy="true" sx={{ minHeight: '100vh' }}>
      <Box role="progressbar" aria-label="Loading page" sx={{ height: 2, overflow: 'hidden', bgcolor: (theme) => alpha(theme.palette.primary.main, 0.2) }}>
        <Box
          sx={{
            width: '40%',
            height: '100%',
            bgcolor: 'primary.main',
            animation: `${sweep} 1.4s ease-in-out infinite`,
            '@media (prefers-reduced-motion: reduce)': { animation: 'none', width: '100%' },
          }}
        />
      </Box>
      {/* A server-rendered page still loading (an account page) says why it stays so without JavaScript, as the empty page does (index.html). */}
      <noscript>
        <p className="boot">This site needs JavaScript to run.</p>
      </noscript>
    </Box>
  );
}
