import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useSession } from '@bimi/session/useSession';
import { ACCOUNT_SUPPORT_LINKS, MONITORS_LINK, SETTINGS_LINKS } from '../navigation';
import { signOutToSignIn } from '../signOutToSignIn';

/** Spec §9: the sheet is dismissed by dragging it down beyond 20% of the screen height. */
const DISMISS_FRACTION = 0.2;

const linkSx = { display: 'block', py: 1.25, color: 'text.primary', textDecoration: 'none', fontWeight: 600 } as const;

export function MoreSheet({ onClose }: { onClose: () => void }) {
  const { data: session } = useSession();
  const [dragY, setDragY] = useState(0);
  const start = useRef<number | null>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    start.current = e.clientY;
    e.currentTarget.setPointerCapture(e.pointerId);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (start.current !== null) setDragY(Math.max(0, e.clientY - start.current));
  };
  const onPointerUp = () => {
    if (start.current === null) return;
    start.current = null;
    if (dragY > window.innerHeight * DISMISS_FRACTION) onClose();
    else setDragY(0);
  };

  return (
    <Box sx={{ position: 'fixed', inset: 0, zIndex: 1300 }}>
      <Box data-testid="more-sheet-backdrop" onClick={onClose} sx={{ position: 'absolute', inset: 0, bgcolor: 'rgba(11,31,68,.45)' }} />
      <Box
        role="dialog"
        aria-modal="true"
        aria-label="More"
        data-testid="more-sheet"
        sx={{
          position: 'absolute',
          inset: 'auto 0 0 0',
          bgcolor: 'background.paper',
          borderRadius: '16px 16px 0 0',
          px: 3,
          pb: 4,
          maxHeight: '80vh',
          overflowY: 'auto',
          transition: start.current === null ? 'transform .2s' : 'none',
        }}
        style={{ transform: `translateY(${dragY}px)` }}
      >
        <Box
          data-testid="more-sheet-handle"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          sx={{ py: 1.5, display: 'flex', justifyContent: 'center', touchAction: 'none', cursor: 'grab' }}
        >
          <Box sx={{ width: 44, height: 5, borderRadius: 3, bgcolor: 'divider' }} />
        </Box>
        <Box component={RouterLink} to={MONITORS_LINK.to} onClick={onClose} sx={linkSx}>
          {MONITORS_LINK.label}
        </Box>
        <Typography variant="overline" color="text.secondary" component="p" sx={{ mt: 1 }}>
          Settings
        </Typography>
        {SETTINGS_LINKS.map((link) => (
          <Box key={link.to} component={RouterLink} to={link.to} onClick={onClose} sx={linkSx}>
            {link.label}
          </Box>
        ))}
        <Typography variant="overline" color="text.secondary" component="p" sx={{ mt: 2 }}>
          Support
        </Typography>
        {ACCOUNT_SUPPORT_LINKS.map((link) =>
          link.external ? (
            <Box key={link.to} component="a" href={link.to} target="_blank" rel="noopener" sx={linkSx}>
              {link.label}
            </Box>
          ) : (
            <Box key={link.to} component={RouterLink} to={link.to} onClick={onClose} sx={linkSx}>
              {link.label}
            </Box>
          ),
        )}
        {session && (
          <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }} noWrap>
            Signed in as {session.user.email}
          </Typography>
        )}
        <Box
          component="button"
          type="button"
          onClick={signOutToSignIn}
          sx={{ ...linkSx, font: 'inherit', fontWeight: 600, border: 0, bgcolor: 'transparent', p: 0, py: 1.25, cursor: 'pointer', color: 'primary.main' }}
        >
          Sign Out
        </Box>
      </Box>
    </Box>
  );
}
