import { useId, useState } from 'react';
import styled from '@emotion/styled';
import { Link as RouterLink } from 'react-router-dom';
import { brand } from '@bimi/ui/brand';
import type { NavLink } from './navigation';
import { Button, colors, Icon, Overline, Surface } from './plain';
import { useHeaderPopupDismissal } from './useHeaderPopupDismissal';

export interface DropdownSection {
  heading?: string;
  links: NavLink[];
}

const Panel = styled(Surface)({ position: 'absolute', top: '100%', left: 0, marginTop: 4, padding: 16, display: 'flex', gap: 24, minWidth: 260, zIndex: 2 });

const Chevron = styled.span<{ turned: boolean }>(({ turned }) => ({ display: 'inline-flex', marginRight: -4, transition: 'transform .2s', transform: turned ? 'rotate(180deg)' : 'none' }));

const List = styled.ul({ listStyle: 'none', padding: 0, margin: 0 });

const Item = styled(RouterLink)({
  display: 'block',
  padding: '8px 12px',
  borderRadius: 4,
  color: brand.ink,
  textDecoration: 'none',
  '&:hover, &:focus-visible': { background: colors.hover },
});

/**
 * A header dropdown: opens on click or hover, closes on Escape, outside click and navigation.
 * Plain elements rather than MUI's Menu keep the header's first load light.
 */
export function Dropdown({ label, sections }: { label: string; sections: DropdownSection[] }) {
  // Hover opens and closes it; a click pins it open until a second click, Escape,
  // an outside click or navigation, so hovering then clicking never toggles it shut.
  const [openedBy, setOpenedBy] = useState<'hover' | 'click' | null>(null);
  const open = openedBy !== null;
  const id = useId();
  const root = useHeaderPopupDismissal(open, () => setOpenedBy(null));

  return (
    <div ref={root} style={{ position: 'relative' }} onMouseEnter={() => setOpenedBy((by) => by ?? 'hover')} onMouseLeave={() => setOpenedBy((by) => (by === 'hover' ? null : by))}>
      <Button aria-expanded={open} aria-controls={id} onClick={() => setOpenedBy((by) => (by === 'click' ? null : 'click'))} style={{ padding: '6px 12px', gap: 4 }}>
        {label}
        <Chevron turned={open}>
          <Icon name="expandMore" />
        </Chevron>
      </Button>
      {open && (
        <Panel id={id}>
          {sections.map((section) => (
            <nav key={section.heading ?? 'links'} aria-label={section.heading ?? label} style={{ minWidth: 220 }}>
              {section.heading && <Overline>{section.heading}</Overline>}
              <List>
                {section.links.map((link) => (
                  <li key={link.to}>
                    <Item to={link.to}>
                      <span style={{ fontWeight: 600, display: 'block' }}>{link.label}</span>
                      {link.description && <span style={{ fontSize: '0.875rem', lineHeight: 1.43, color: brand.muted }}>{link.description}</span>}
                    </Item>
                  </li>
                ))}
              </List>
            </nav>
          ))}
        </Panel>
      )}
    </div>
  );
}
