import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { brand } from '@bimi/ui/theme';

const MESSAGES = [
  { sender: 'Northwind Bank', initials: 'NB', colour: '#0b5cad', subject: 'Your statement is ready', verified: true },
  { sender: 'Contoso Air', initials: 'CA', colour: '#c2410c', subject: 'Boarding pass for flight CA 207', verified: true },
  { sender: 'unknown-sender.biz', initials: '?', colour: '#9aa3b2', subject: 'Urgent: confirm your account', verified: false },
];

/** A drawn inbox (no images to load) showing what BIMI changes: logos and checkmarks for authenticated senders. */
export function InboxPreview() {
  return (
    <Box
      role="img"
      aria-label="An inbox where two authenticated senders show their logo and a verified checkmark, and an unauthenticated sender shows only a grey placeholder"
      sx={{ borderRadius: 3, bgcolor: '#fff', boxShadow: '0 18px 50px rgba(11,31,68,0.16)', border: '1px solid', borderColor: 'divider', overflow: 'hidden' }}
    >
      <Box sx={{ px: 2.5, py: 1.5, bgcolor: brand.navy, color: '#fff', fontWeight: 600, fontSize: 14 }}>Inbox</Box>
      {MESSAGES.map((message) => (
        <Box key={message.sender} sx={{ display: 'flex', gap: 1.75, alignItems: 'center', px: 2.5, py: 1.75, borderTop: '1px solid', borderColor: 'divider' }}>
          <Box sx={{ flex: '0 0 40px', height: 40, borderRadius: '50%', bgcolor: message.colour, color: '#fff', display: 'grid', placeItems: 'center', fontWeight: 700, fontSize: 14 }}>
            {message.initials}
          </Box>
          <Box sx={{ minWidth: 0 }}>
            <Typography component="span" sx={{ display: 'flex', alignItems: 'center', gap: 0.5, fontWeight: 700, fontSize: 15 }}>
              {message.sender}
              {message.verified && (
                <Box component="svg" viewBox="0 0 24 24" sx={{ width: 16, height: 16, fill: brand.blue }}>
                  <path d="M12 1 9.2 3.2 5.6 3l-.9 3.5L1.5 8.3 3 11.6 1.5 15l3.2 1.8.9 3.5 3.6-.2L12 22.3l2.8-2.2 3.6.2.9-3.5 3.2-1.8-1.5-3.4 1.5-3.3-3.2-1.8-.9-3.5-3.6.2L12 1Zm-1.3 14.7-3.9-3.9 1.4-1.4 2.5 2.5 5.3-5.3 1.4 1.4-6.7 6.7Z" />
                </Box>
              )}
            </Typography>
            <Typography component="span" variant="body2" color="text.secondary" sx={{ display: 'block', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
              {message.subject}
            </Typography>
          </Box>
        </Box>
      ))}
    </Box>
  );
}
