import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Link, { type LinkProps } from '@mui/material/Link';

/** Files the bff serves itself (the validation guide PDF): the router must not handle them. */
const isFileLink = (to: string) => to.startsWith('/docs/');

/** An internal link: client-side navigation for pages, a plain document link for files. */
export function SiteLink({ to, children, ...props }: { to: string; children: ReactNode } & Omit<LinkProps, 'href'>) {
  if (isFileLink(to)) {
    return (
      <Link href={to} {...props}>
        {children}
      </Link>
    );
  }
  return (
    <Link component={RouterLink} to={to} {...props}>
      {children}
    </Link>
  );
}
