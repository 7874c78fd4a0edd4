import { useId, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { NavLink } from './navigation';
import { useHeaderPopupDismissal } from './useHeaderPopupDismissal';

export interface DropdownSection {
  heading?: string;
  links: NavLink[];
}

/**
 * A header dropdown: opens on click or hover, closes on Escape, outside click and
 * navigation. Plain elements rather than MUI's Menu keep the header's first load light.
 */
export function Dropdown({ label, sections }: { label: string; sections: DropdownSection[] }) {
  // Hover opens and closes it; a click pins it open until a second click, Escape,
  // an outside click or navigation, so hovering then clicking never toggles it shut.
  const [openedBy, setOpenedBy] = useState<'hover' | 'click' | null>(null);
  const open = openedBy !== null;
  const id = useId();
  const root = useHeaderPopupDismissal(open, () => setOpenedBy(null));

  return (
    <Box ref={root} sx={{ position: 'relative' }} onMouseEnter={() => setOpenedBy((by) => by ?? 'hover')} onMouseLeave={() => setOpenedBy((by) => (by === 'hover' ? null : by))}>
      <Button
        color="inherit"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpenedBy((by) => (by === 'click' ? null : 'click'))}
        endIcon={<ExpandMoreIcon sx={{ transition: 'transform .2s', transform: open ? 'rotate(180deg)' : 'none' }} />}
        sx={{ fontWeight: 600, px: 1.5 }}
      >
        {label}
      </Button>
      {open && (
        <Paper id={id} elevation={6} sx={{ position: 'absolute', top: '100%', left: 0, mt: 0.5, p: 2, display: 'flex', gap: 3, minWidth: 260, zIndex: 2 }}>
          {sections.map((section) => (
            <Box key={section.heading ?? 'links'} component="nav" aria-label={section.heading ?? label} sx={{ minWidth: 220 }}>
              {section.heading && (
                <Typography variant="overline" color="text.secondary" component="p">
                  {section.heading}
                </Typography>
              )}
              <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
                {section.links.map((link) => (
                  <li key={link.to}>
                    <Box
                      component={RouterLink}
                      to={link.to}
                      sx={{ display: 'block', px: 1.5, py: 1, borderRadius: 1, color: 'text.primary', textDecoration: 'none', '&:hover, &:focus-visible': { bgcolor: 'action.hover' } }}
                    >
                      <Typography component="span" sx={{ fontWeight: 600, display: 'block' }}>
                        {link.label}
                      </Typography>
                      {link.description && (
                        <Typography component="span" variant="body2" color="text.secondary">
                          {link.description}
                        </Typography>
                      )}
                    </Box>
                  </li>
                ))}
              </Box>
            </Box>
          ))}
        </Paper>
      )}
    </Box>
  );
}
