import styled from '@emotion/styled';
import { Link as RouterLink } from 'react-router-dom';
import { brand } from '@bimi/ui/brand';
import { StaticRegion } from '@bimi/ui/StaticRegion';
import { COMPANY_LINKS, LEGAL_LINKS, PRODUCT_LINKS, PUBLIC_TOOL_LINKS, SUPPORT_LINKS, type NavLink } from './navigation';
import { Newsletter } from './Newsletter';
import { colors, up } from './plain';

// Read at each render: the server keeps this module loaded across New Year.
const copyright = () => `© ${new Date().getFullYear()} BIMI Store. All rights reserved.`;

const ColumnHeading = styled.h2({ margin: '0 0 12px', fontSize: '0.875rem', fontWeight: 700, lineHeight: 1.57, color: '#ffffff' });
const Links = styled.ul({ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 });
const FooterLink = styled(RouterLink)({ color: 'rgba(255,255,255,.82)', textDecoration: 'none', '&:hover': { color: '#ffffff', textDecoration: 'underline' } });

function LinkColumn({ heading, links }: { heading: string; links: NavLink[] }) {
  return (
    <nav aria-label={heading}>
      <ColumnHeading>{heading}</ColumnHeading>
      <Links>
        {links.map((link) => (
          <li key={link.to}>
            <FooterLink to={link.to}>{link.label}</FooterLink>
          </li>
        ))}
      </Links>
    </nav>
  );
}

const Full = styled.footer({ background: brand.navy, color: 'rgba(255,255,255,.9)', padding: '48px 24px 32px', [up.md]: { padding: '48px 48px 32px' } });
const Columns = styled.div({ maxWidth: 1200, margin: '0 auto', display: 'grid', gap: 32, gridTemplateColumns: '1fr 1fr', [up.md]: { gridTemplateColumns: 'repeat(4, 1fr) 1.6fr' } });
const NewsletterCell = styled.div({ gridColumn: '1 / -1', [up.md]: { gridColumn: 'auto' } });
const Copyright = styled.p({
  maxWidth: 1200,
  margin: '40px auto 0',
  paddingTop: 24,
  borderTop: '1px solid rgba(255,255,255,.15)',
  fontSize: '0.875rem',
  lineHeight: 1.43,
  color: 'rgba(255,255,255,.75)',
});

/** The public footer: link columns, the newsletter sign-up and the copyright. */
export function FullFooter() {
  return (
    <Full data-testid="footer-full">
      <Columns>
        {/* Links only: kept as the server drew them (their clicks go through the router). */}
        <StaticRegion>
          <LinkColumn heading="Products" links={PRODUCT_LINKS.slice(1)} />
          <LinkColumn heading="Resources" links={SUPPORT_LINKS} />
          <LinkColumn heading="Free tools" links={PUBLIC_TOOL_LINKS} />
          <LinkColumn heading="Company" links={[...COMPANY_LINKS, ...LEGAL_LINKS]} />
        </StaticRegion>
        <NewsletterCell>
          <Newsletter />
        </NewsletterCell>
      </Columns>
      <Copyright>{copyright()}</Copyright>
    </Full>
  );
}

const Small = styled.footer({
  borderTop: `1px solid ${colors.divider}`,
  padding: 24,
  display: 'flex',
  flexWrap: 'wrap',
  gap: 16,
  justifyContent: 'center',
  color: brand.muted,
  fontSize: 14,
});

/** Auth, legal and enrollment pages: legal links and the copyright. */
export function SmallFooter() {
  return (
    <Small data-testid="footer-small">
      <span>{copyright()}</span>
      {LEGAL_LINKS.map((link) => (
        <RouterLink key={link.to} to={link.to} style={{ color: brand.muted }}>
          {link.label}
        </RouterLink>
      ))}
    </Small>
  );
}

const Minimal = styled.footer({ padding: 24, textAlign: 'center', color: brand.muted, fontSize: 14 });

/** Landing and checkout pages: the copyright alone. */
export function MinimalFooter() {
  return <Minimal data-testid="footer-minimal">{copyright()}</Minimal>;
}
