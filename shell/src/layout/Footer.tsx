import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { StaticRegion } from '@bimi/ui/StaticRegion';
import { COMPANY_LINKS, LEGAL_LINKS, PRODUCT_LINKS, PUBLIC_TOOL_LINKS, SUPPORT_LINKS, type NavLink } from './navigation';
import { Newsletter } from './Newsletter';

// Read at each render: the server keeps this module loaded across New Year.
const copyright = () => `© ${new Date().getFullYear()} BIMI Store. All rights reserved.`;

function LinkColumn({ heading, links }: { heading: string; links: NavLink[] }) {
  return (
    <Box component="nav" aria-label={heading}>
      <Typography component="h2" variant="subtitle2" sx={{ fontWeight: 700, mb: 1.5, color: '#fff' }}>
        {heading}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', m: 0, p: 0, display: 'grid', gap: 1 }}>
        {links.map((link) => (
          <li key={link.to}>
            <Box component={RouterLink} to={link.to} sx={{ color: 'rgba(255,255,255,.82)', textDecoration: 'none', '&:hover': { color: '#fff', textDecoration: 'underline' } }}>
              {link.label}
            </Box>
          </li>
        ))}
      </Box>
    </Box>
  );
}

/** The public footer: link columns, the newsletter sign-up and the copyright. */
export function FullFooter() {
  return (
    <Box component="footer" data-testid="footer-full" sx={{ bgcolor: 'secondary.main', color: 'rgba(255,255,255,.9)', px: { xs: 3, md: 6 }, pt: 6, pb: 4 }}>
      <Box sx={{ maxWidth: 1200, mx: 'auto', display: 'grid', gap: 4, gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(4, 1fr) 1.6fr' } }}>
        {/* Links only: kept as the server drew them (their clicks go through the router). */}
        <StaticRegion>
          <LinkColumn heading="Products" links={PRODUCT_LINKS.slice(1)} />
          <LinkColumn heading="Resources" links={SUPPORT_LINKS} />
          <LinkColumn heading="Free tools" links={PUBLIC_TOOL_LINKS} />
          <LinkColumn heading="Company" links={[...COMPANY_LINKS, ...LEGAL_LINKS]} />
        </StaticRegion>
        <Box sx={{ gridColumn: { xs: '1 / -1', md: 'auto' } }}>
          <Newsletter />
        </Box>
      </Box>
      <Typography variant="body2" sx={{ maxWidth: 1200, mx: 'auto', mt: 5, pt: 3, borderTop: '1px solid rgba(255,255,255,.15)', color: 'rgba(255,255,255,.75)' }}>
        {copyright()}
      </Typography>
    </Box>
  );
}

/** Auth, legal and enrollment pages: legal links and the copyright. */
export function SmallFooter() {
  return (
    <Box
      component="footer"
      data-testid="footer-small"
      sx={{ borderTop: '1px solid', borderColor: 'divider', px: 3, py: 3, display: 'flex', flexWrap: 'wrap', gap: 2, justifyContent: 'center', color: 'text.secondary', fontSize: 14 }}
    >
      <span>{copyright()}</span>
      {LEGAL_LINKS.map((link) => (
        <Box key={link.to} component={RouterLink} to={link.to} sx={{ color: 'text.secondary' }}>
          {link.label}
        </Box>
      ))}
    </Box>
  );
}

/** Landing and checkout pages: the copyright alone. */
export function MinimalFooter() {
  return (
    <Box component="footer" data-testid="footer-minimal" sx={{ px: 3, py: 3, textAlign: 'center', color: 'text.secondary', fontSize: 14 }}>
      {copyright()}
    </Box>
  );
}
