import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/**
 * The logo as mailboxes show it beside a message: a mock message list in a light and a dark
 * theme, cropped round (as Gmail does) and as a rounded square (as Yahoo and Apple Mail do).
 *
 * The SVG is only ever shown through <img> from a data: URL: an image document runs no
 * script and loads nothing else, so a hostile logo cannot touch the page.
 */
export function svgDataUrl(svg: string): string {
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

type Crop = 'round' | 'square';
type Scheme = 'light' | 'dark';

const SCHEMES: Record<Scheme, { bg: string; row: string; text: string; muted: string; line: string; label: string }> = {
  light: { bg: '#f6f8fc', row: '#ffffff', text: '#1f1f1f', muted: '#5f6368', line: '#e6e8ee', label: 'Light theme' },
  dark: { bg: '#121212', row: '#1f1f1f', text: '#e8eaed', muted: '#9aa0a6', line: '#2c2c2c', label: 'Dark theme' },
};

function Avatar({ logoUrl, crop, initial, alt }: { logoUrl?: string | undefined; crop: Crop; initial: string; alt: string }) {
  const shape = { width: 40, height: 40, flex: '0 0 40px', borderRadius: crop === 'round' ? '50%' : '8px', overflow: 'hidden' } as const;
  if (!logoUrl) {
    return (
      <Box aria-hidden sx={{ ...shape, display: 'grid', placeItems: 'center', bgcolor: '#7b8794', color: '#fff', fontWeight: 700 }}>
        {initial}
      </Box>
    );
  }
  // BIMI logos are square with their own background; object-fit keeps an odd one undistorted.
  return <Box component="img" src={logoUrl} alt={alt} sx={{ ...shape, objectFit: 'cover', bgcolor: '#fff', display: 'block' }} />;
}

function MessageRow({
  scheme,
  crop,
  sender,
  subject,
  snippet,
  logoUrl,
  time,
}: {
  scheme: Scheme;
  crop: Crop;
  sender: string;
  subject: string;
  snippet: string;
  logoUrl?: string | undefined;
  time: string;
}) {
  const colors = SCHEMES[scheme];
  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', px: 1.5, py: 1.25, bgcolor: colors.row, borderBottom: `1px solid ${colors.line}`, minWidth: 0 }}>
      <Avatar logoUrl={logoUrl} crop={crop} initial={sender.slice(0, 1).toUpperCase()} alt={`${sender} logo, ${crop === 'round' ? 'round' : 'square'} crop`} />
      <Box sx={{ minWidth: 0, flex: 1 }}>
        <Box sx={{ display: 'flex', gap: 1, justifyContent: 'space-between' }}>
          <Typography noWrap sx={{ color: colors.text, fontWeight: 700, fontSize: 14 }}>
            {sender}
          </Typography>
          <Typography sx={{ color: colors.muted, fontSize: 12, flex: '0 0 auto' }}>{time}</Typography>
        </Box>
        <Typography noWrap sx={{ color: colors.text, fontSize: 14 }}>
          {subject}
        </Typography>
        <Typography noWrap sx={{ color: colors.muted, fontSize: 13 }}>
          {snippet}
        </Typography>
      </Box>
    </Box>
  );
}

export function InboxPreview({ logoUrl, sender }: { logoUrl?: string | undefined; sender: string }) {
  return (
    <Box data-testid="inbox-preview" sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, 1fr)' } }}>
      {(['light', 'dark'] as const).map((scheme) => {
        const colors = SCHEMES[scheme];
        return (
          <Box key={scheme} data-scheme={scheme} sx={{ bgcolor: colors.bg, borderRadius: 2, overflow: 'hidden', border: `1px solid ${colors.line}` }}>
            <Typography sx={{ color: colors.muted, fontSize: 12, fontWeight: 600, letterSpacing: 0.5, textTransform: 'uppercase', px: 1.5, pt: 1.25, pb: 0.75 }}>{colors.label}</Typography>
            <MessageRow scheme={scheme} crop="round" sender={sender} subject="Your order has shipped" snippet="Round crop: how Gmail shows your mark." logoUrl={logoUrl} time="9:41" />
            <MessageRow
              scheme={scheme}
              crop="square"
              sender={sender}
              subject="Your monthly statement is ready"
              snippet="Square crop: how Yahoo and Apple Mail show it."
              logoUrl={logoUrl}
              time="Mon"
            />
            <MessageRow scheme={scheme} crop="round" sender="Another sender" subject="Lunch on Friday?" snippet="Without BIMI a mailbox shows an initial instead." time="Sun" />
          </Box>
        );
      })}
    </Box>
  );
}
