import styled from '@emotion/styled';
import { keyframes } from '@emotion/react';
import { brand } from '@bimi/ui/brand';

/** The bar moves by transform only: MUI's LinearProgress animates left and right, a layout shift each frame (issue 14: CLS 0). */
const sweep = keyframes({ from: { transform: 'translateX(-100%)' }, to: { transform: 'translateX(250%)' } });

const Track = styled.div({ height: 2, overflow: 'hidden', background: 'rgba(23, 70, 199, 0.2)' });
const Bar = styled.div({
  width: '40%',
  height: '100%',
  background: brand.blue,
  animation: `${sweep} 1.4s ease-in-out infinite`,
  '@media (prefers-reduced-motion: reduce)': { animation: 'none', width: '100%' },
});

/** Shown while a remote's code arrives: a thin bar, a full screen tall so the footer stays below the fold and does not jump when the page arrives. */
export function PageLoading() {
  return (
    <div aria-busy="true" style={{ minHeight: '100vh' }}>
      <Track role="progressbar" aria-label="Loading page">
        <Bar />
      </Track>
      {/* A server-rendered page still loading (an account page) says why it stays so without JavaScript, as the empty page does (index.html). */}
      <noscript>
        <p className="boot">This site needs JavaScript to run.</p>
      </noscript>
    </div>
  );
}
