import styled from '@emotion/styled';
import { Link as RouterLink } from 'react-router-dom';
import { brand } from '@bimi/ui/brand';

const Home = styled(RouterLink)({
  display: 'inline-flex',
  alignItems: 'center',
  gap: 8,
  color: brand.navy,
  textDecoration: 'none',
  fontWeight: 800,
  fontSize: 20,
});

export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <Home to="/" aria-label="BIMI Store home">
      <svg width="30" height="30" viewBox="0 0 32 32" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill="#1746c7" />
        <path d="M9 17l5 5 9-11" stroke="#fff" strokeWidth="3.5" fill="none" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      {!compact && <span>BIMI Store</span>}
    </Home>
  );
}
