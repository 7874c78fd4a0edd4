import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { CONTACT_LIMITS, CONTACT_TOPICS, ContactRequest, type ContactTopic } from '@bimi/contracts/contact';
import { showToast } from '@bimi/ui/toasts';
import { sendContactMessage } from './send-contact-message';

type Field = 'name' | 'email' | 'company' | 'topic' | 'message';
type Values = Record<Field, string>;

const EMPTY: Values = { name: '', email: '', company: '', topic: '', message: '' };

/** The first message per field of what the shared contract says is wrong. */
function fieldErrors(values: Values): Partial<Record<Field, string>> {
  const parsed = ContactRequest.safeParse(values);
  const errors: Partial<Record<Field, string>> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as Field;
    errors[field] ??= issue.message;
  }
  return errors;
}

export function ContactForm({ initialTopic, initialMessage }: { initialTopic?: ContactTopic; initialMessage?: string }) {
  const [values, setValues] = useState<Values>({ ...EMPTY, topic: initialTopic ?? '', message: initialMessage ?? '' });
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);

  const errors = fieldErrors(values);
  const shown = (field: Field) => (touched[field] ? errors[field] : undefined);
  const bind = (field: Field) => ({
    name: field,
    value: values[field],
    onChange: (event: { target: { value: string } }) => setValues((current) => ({ ...current, [field]: event.target.value })),
    onBlur: () => setTouched((current) => ({ ...current, [field]: true })),
    error: Boolean(shown(field)),
    helperText: shown(field),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched({ name: true, email: true, company: true, topic: true, message: true });
    setOutcome(null);
    const parsed = ContactRequest.safeParse(values);
    if (!parsed.success) {
      // Focus the first field at fault so keyboard and screen-reader users land on it.
      const first = parsed.error.issues[0]?.path[0];
      if (typeof first === 'string') document.getElementById(`contact-${first}`)?.focus();
      return;
    }
    setSending(true);
    const result = await sendContactMessage(parsed.data);
    setSending(false);
    if (result.ok) {
      setOutcome({ severity: 'success', text: result.receipt.message });
      showToast({ title: 'Message sent', message: `Reference ${result.receipt.reference}`, severity: 'success' });
      setValues({ ...EMPTY });
      setTouched({});
    } else {
      setOutcome({ severity: 'error', text: result.message });
    }
  }

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label="Contact form" sx={{ display: 'grid', gap: 2.5 }}>
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        <TextField id="contact-name" label="Name" required autoComplete="name" slotProps={{ htmlInput: { maxLength: CONTACT_LIMITS.nameMax } }} {...bind('name')} />
        <TextField id="contact-email" label="Email" type="email" required autoComplete="email" slotProps={{ htmlInput: { maxLength: CONTACT_LIMITS.emailMax } }} {...bind('email')} />
        <TextField id="contact-company" label="Company" autoComplete="organization" slotProps={{ htmlInput: { maxLength: CONTACT_LIMITS.companyMax } }} {...bind('company')} />
        <TextField id="contact-topic" label="Topic" required select slotProps={{ select: { native: true }, inputLabel: { shrink: true } }} {...bind('topic')}>
          <option value="" disabled>
            Choose a topic
          </option>
          {CONTACT_TOPICS.map((topic) => (
            <option key={topic.value} value={topic.value}>
              {topic.label}
            </option>
          ))}
        </TextField>
      </Box>
      <TextField
        id="contact-message"
        label="Message"
        required
        multiline
        minRows={6}
        slotProps={{ htmlInput: { maxLength: CONTACT_LIMITS.messageMax } }}
        {...bind('message')}
        helperText={shown('message') ?? `Your domains, your logo and what you would like to know. ${values.message.length}/${CONTACT_LIMITS.messageMax}`}
      />
      <Box aria-live="polite">{outcome && <Alert severity={outcome.severity}>{outcome.text}</Alert>}</Box>
      <Box>
        <Button type="submit" variant="contained" size="large" disabled={sending}>
          {sending ? 'Sending…' : 'Send message'}
        </Button>
      </Box>
    </Box>
  );
}
