import type { ReactNode } from 'react';
import styled from '@emotion/styled';
import type { RouteLayout } from '@bimi/contracts/registry';
import { MAIN_CONTENT_ID } from '@bimi/contracts/site';
import { RADIUS } from '@bimi/ui/brand';
import { Header, HEADER_HEIGHT } from './Header';
import { FullFooter, MinimalFooter, SmallFooter } from './Footer';
import { Logo } from './Logo';
import { up } from './plain';

/** Spec §2: which header and which footer each kind of public page gets. */
const FRAMES: Record<Exclude<RouteLayout, 'account'>, { header: boolean; footer: 'full' | 'small' | 'minimal' }> = {
  public: { header: true, footer: 'full' },
  enrollment: { header: true, footer: 'small' },
  auth: { header: false, footer: 'small' },
  legal: { header: false, footer: 'small' },
  checkout: { header: false, footer: 'minimal' },
  landing: { header: false, footer: 'minimal' },
};

const SkipLink = styled.a({ position: 'absolute', left: 8, top: -48, zIndex: 2000, background: '#ffffff', padding: '8px 16px', borderRadius: RADIUS, '&:focus': { top: 8 } });

// Pages without the header still keep the brand and a way home, in the banner landmark.
const BrandBar = styled.header({ padding: '20px 20px 0', [up.md]: { padding: '20px 32px 0' } });

const Main = styled.main({
  flex: 1,
  // At least a screen tall: the footer never jumps into view when a page arrives.
  minHeight: '100vh',
});

export function PublicLayout({ layout, header, children }: { layout: Exclude<RouteLayout, 'account'>; header: 'white' | 'fade'; children: ReactNode }) {
  const frame = FRAMES[layout];
  return (
    <>
      <SkipLink href={`#${MAIN_CONTENT_ID}`}>Skip to content</SkipLink>
      {frame.header ? (
        <Header variant={header} />
      ) : (
        <BrandBar data-testid="brand-bar">
          <Logo />
        </BrandBar>
      )}
      <Main
        id={MAIN_CONTENT_ID}
        data-layout={layout}
        style={{
          paddingTop: frame.header ? HEADER_HEIGHT : 0,
          // Under a fading header the page's top shows through until the visitor scrolls.
          background: frame.header && header === 'fade' ? 'linear-gradient(180deg, #e8efff 0, #ffffff 420px)' : undefined,
        }}
      >
        {children}
      </Main>
      {frame.footer === 'full' ? <FullFooter /> : frame.footer === 'small' ? <SmallFooter /> : <MinimalFooter />}
    </>
  );
}
