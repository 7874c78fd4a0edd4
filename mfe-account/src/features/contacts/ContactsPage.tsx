import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import * as z from 'zod/mini';
import { ACCOUNT_PATHS, Contact, CONTACT_KINDS, ContactInput, ContactList, type ContactKind } from '@bimi/contracts/account';
import { formatPhone } from '@bimi/contracts/phone';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AccountPageTitle, SettingsCard } from '../../components/SettingsCard';
import { callApi, failureMessage } from '@bimi/session/api';
import { checkForm, type FieldErrors } from '../../lib/api';
import { useApi } from '../../lib/useApi';

const KINDS = Object.keys(CONTACT_KINDS) as ContactKind[];
const EMPTY = { kind: 'technical' as ContactKind, name: '', email: '', phone: '', jobTitle: '', company: '' };
type Values = typeof EMPTY;

function toValues(contact: Contact): Values {
  return {
    kind: contact.kind,
    name: contact.name,
    email: contact.email,
    phone: contact.phone ? formatPhone(contact.phone) : '',
    jobTitle: contact.jobTitle ?? '',
    company: contact.company ?? '',
  };
}

function ContactForm({ editing, onSaved, onCancel }: { editing: Contact | null; onSaved: (contact: Contact) => void; onCancel: () => void }) {
  const [values, setValues] = useState<Values>(editing ? toValues(editing) : EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const field = (name: Exclude<keyof Values, 'kind'>) => ({
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues({ ...values, [name]: e.target.value }),
    error: Boolean(errors[name]),
    helperText: errors[name],
    fullWidth: true,
  });
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    // Optional fields left empty are sent as null (no value), not as empty text.
    const blankToNull = (text: string) => (text.trim() ? text : null);
    const checked = checkForm(ContactInput, { ...values, phone: blankToNull(values.phone), jobTitle: blankToNull(values.jobTitle), company: blankToNull(values.company) });
    setErrors(checked.errors ?? {});
    if (!checked.data) return;
    setBusy(true);
    setFailure(null);
    try {
      const saved = await callApi(editing ? ACCOUNT_PATHS.contact(editing.id) : ACCOUNT_PATHS.contacts, { method: editing ? 'PUT' : 'POST', body: checked.data, answer: Contact });
      onSaved(saved);
      setValues(EMPTY);
    } catch (error) {
      setFailure(failureMessage(error));
    }
    setBusy(false);
  };
  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label={editing ? 'Edit contact' : 'Add a contact'}>
      {failure && <Alert severity="error">{failure}</Alert>}
      <TextField select label="Role" value={values.kind} onChange={(e) => setValues({ ...values, kind: e.target.value as ContactKind })} fullWidth>
        {KINDS.map((kind) => (
          <MenuItem key={kind} value={kind}>
            {CONTACT_KINDS[kind]}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField label="Name" autoComplete="off" {...field('name')} />
        <TextField label="Email" type="email" autoComplete="off" {...field('email')} />
        {/* Checked with libphonenumber-js as the bff checks it; saved in E.164, shown as +1 202 555 0143. */}
        <TextField label="Phone (optional)" type="tel" autoComplete="off" {...field('phone')} helperText={errors.phone ?? 'With the country code outside the US'} />
        <TextField label="Job title (optional)" {...field('jobTitle')} />
        <TextField label="Company (optional)" {...field('company')} />
      </Box>
      <Stack direction="row" spacing={1}>
        <Button type="submit" variant="contained" disabled={busy}>
          {editing ? 'Save contact' : 'Add contact'}
        </Button>
        {editing && (
          <Button onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
        )}
      </Stack>
    </Stack>
  );
}

export function ContactsPage({ route }: PageProps) {
  const { data, error, set } = useApi(ACCOUNT_PATHS.contacts, ContactList);
  const [editing, setEditing] = useState<Contact | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const contacts = data?.contacts ?? [];

  const onSaved = (saved: Contact) => {
    set({ contacts: editing ? contacts.map((c) => (c.id === saved.id ? saved : c)) : [...contacts, saved] });
    setEditing(null);
  };
  const remove = async (contact: Contact) => {
    setFailure(null);
    try {
      await callApi(ACCOUNT_PATHS.contact(contact.id), { method: 'DELETE', answer: z.unknown() });
      set({ contacts: contacts.filter((c) => c.id !== contact.id) });
    } catch (err) {
      setFailure(failureMessage(err));
    }
  };

  return (
    <>
      <AccountPageTitle title={route.title} lead="The people the certificate authority reaches during validation, and who get invoices and legal notices." />
      {error && <Alert severity="error">{error}</Alert>}
      {!data && !error && <CircularProgress aria-label="Loading your contacts" />}
      {data &&
        KINDS.map((kind) => {
          const ofKind = contacts.filter((c) => c.kind === kind);
          return (
            <SettingsCard key={kind} title={CONTACT_KINDS[kind]} testId={`contacts-${kind}`}>
              {ofKind.length === 0 && <Typography color="text.secondary">No {CONTACT_KINDS[kind].toLowerCase()} yet.</Typography>}
              <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
                {ofKind.map((contact) => (
                  <Box
                    component="li"
                    key={contact.id}
                    sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap', border: '1px solid', borderColor: 'divider', borderRadius: 2, p: 2 }}
                  >
                    <Box sx={{ flex: 1, minWidth: 200 }}>
                      <Typography sx={{ fontWeight: 700 }}>{contact.name}</Typography>
                      <Typography variant="body2" color="text.secondary">
                        {[contact.email, contact.phone && formatPhone(contact.phone), contact.jobTitle, contact.company].filter(Boolean).join(' · ')}
                      </Typography>
                    </Box>
                    <Button size="small" onClick={() => setEditing(contact)} aria-label={`Edit ${contact.name}`}>
                      Edit
                    </Button>
                    <Button size="small" color="error" onClick={() => void remove(contact)} aria-label={`Remove ${contact.name}`}>
                      Remove
                    </Button>
                  </Box>
                ))}
              </Box>
            </SettingsCard>
          );
        })}
      {failure && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {failure}
        </Alert>
      )}
      {data && (
        <SettingsCard title={editing ? `Edit ${editing.name}` : 'Add a contact'}>
          <ContactForm key={editing?.id ?? 'new'} editing={editing} onSaved={onSaved} onCancel={() => setEditing(null)} />
        </SettingsCard>
      )}
    </>
  );
}
