import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import type { RouteLayout } from '@bimi/contracts/registry';
import { MAIN_CONTENT_ID } from '@bimi/contracts/site';
import { Header, HEADER_HEIGHT } from './Header';
import { FullFooter, MinimalFooter, SmallFooter } from './Footer';
import { Logo } from './Logo';

/** Spec §2: which header and which footer each kind of public page gets. */
const FRAMES: Record<Exclude<RouteLayout, 'account'>, { header: boolean; footer: 'full' | 'small' | 'minimal' }> = {
  public: { header: true, footer: 'full' },
  enrollment: { header: true, footer: 'small' },
  auth: { header: false, footer: 'small' },
  legal: { header: false, footer: 'small' },
  checkout: { header: false, footer: 'minimal' },
  landing: { header: false, footer: 'minimal' },
};

export function PublicLayout({ layout, header, children }: { layout: Exclude<RouteLayout, 'account'>; header: 'white' | 'fade'; children: ReactNode }) {
  const frame = FRAMES[layout];
  return (
    <>
      <Box
        component="a"
        href={`#${MAIN_CONTENT_ID}`}
        sx={{ position: 'absolute', left: 8, top: -48, zIndex: 2000, bgcolor: 'background.paper', px: 2, py: 1, borderRadius: 1, '&:focus': { top: 8 } }}
      >
        Skip to content
      </Box>
      {frame.header ? (
        <Header variant={header} />
      ) : (
        // Pages without the header still keep the brand and a way home, in the banner landmark.
        <Box component="header" data-testid="brand-bar" sx={{ px: { xs: 2.5, md: 4 }, pt: 2.5 }}>
          <Logo />
        </Box>
      )}
      <Box
        component="main"
        id={MAIN_CONTENT_ID}
        data-layout={layout}
        sx={{
          flex: 1,
          // At least a screen tall: the footer never jumps into view when a page arrives.
          minHeight: '100vh',
          pt: frame.header ? `${HEADER_HEIGHT}px` : 0,
          // Under a fading header the page's top shows through until the visitor scrolls.
          background: frame.header && header === 'fade' ? 'linear-gradient(180deg, #e8efff 0, #ffffff 420px)' : undefined,
        }}
      >
        {children}
      </Box>
      {frame.footer === 'full' ? <FullFooter /> : frame.footer === 'small' ? <SmallFooter /> : <MinimalFooter />}
    </>
  );
}
