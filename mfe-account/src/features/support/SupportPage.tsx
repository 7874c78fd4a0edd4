import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ACCOUNT_PATHS, Ticket, TICKET_CATEGORIES, TicketCreate, TicketList, type TicketCategory } from '@bimi/contracts/account';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AccountPageTitle, SettingsCard } from '../../components/SettingsCard';
import { callApi } from '@bimi/session/api';
import { shortDate } from '@bimi/contracts/dates';
import { useApi } from '../../lib/useApi';
import { useNoticeForm } from '../../lib/useNoticeForm';

const EMPTY = { category: 'order' as TicketCategory, subject: '', message: '' };

function TicketForm({ onCreated }: { onCreated: (ticket: Ticket) => void }) {
  const [values, setValues] = useState(EMPTY);
  const { errors, notice, busy, submit } = useNoticeForm(TicketCreate, async (data) => {
    const ticket = await callApi(ACCOUNT_PATHS.supportTickets, { method: 'POST', body: data, answer: Ticket });
    onCreated(ticket);
    setValues(EMPTY);
    return { severity: 'success', text: `Ticket ${ticket.reference} was sent. We answer by email, usually within one business day.` };
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(values);
  };
  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="New support ticket">
      {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
      <TextField select label="Topic" value={values.category} onChange={(e) => setValues({ ...values, category: e.target.value as TicketCategory })} fullWidth>
        {(Object.keys(TICKET_CATEGORIES) as TicketCategory[]).map((key) => (
          <MenuItem key={key} value={key}>
            {TICKET_CATEGORIES[key]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        label="Subject"
        value={values.subject}
        onChange={(e) => setValues({ ...values, subject: e.target.value })}
        error={Boolean(errors.subject)}
        helperText={errors.subject}
        fullWidth
      />
      <TextField
        label="Message"
        multiline
        minRows={4}
        value={values.message}
        onChange={(e) => setValues({ ...values, message: e.target.value })}
        error={Boolean(errors.message)}
        helperText={errors.message}
        fullWidth
      />
      <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
        Send ticket
      </Button>
    </Stack>
  );
}

export function SupportPage({ route }: PageProps) {
  const { data, error, set } = useApi(ACCOUNT_PATHS.supportTickets, TicketList);
  return (
    <>
      <AccountPageTitle title={route.title} lead="Ask us about an order, validation, billing or the tools." />
      <SettingsCard title="New ticket">
        <TicketForm onCreated={(ticket) => set({ tickets: [ticket, ...(data?.tickets ?? [])] })} />
      </SettingsCard>
      <SettingsCard title="Your tickets" testId="ticket-list">
        {error && <Alert severity="error">{error}</Alert>}
        {!data && !error && <CircularProgress aria-label="Loading your tickets" />}
        {data && data.tickets.length === 0 && <Typography color="text.secondary">You have not opened a ticket yet.</Typography>}
        {data && data.tickets.length > 0 && (
          <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
            {data.tickets.map((ticket) => (
              <Box component="li" key={ticket.id} sx={{ border: '1px solid', borderColor: 'divider', borderRadius: 2, p: 2 }}>
                <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                  <Typography sx={{ fontWeight: 700, flex: 1, minWidth: 0 }}>{ticket.subject}</Typography>
                  <Chip size="small" label={ticket.status === 'open' ? 'Open' : 'Closed'} color={ticket.status === 'open' ? 'primary' : 'default'} />
                </Box>
                <Typography variant="body2" color="text.secondary">
                  {ticket.reference} · {TICKET_CATEGORIES[ticket.category]} · {shortDate(ticket.createdAt)}
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </SettingsCard>
    </>
  );
}
