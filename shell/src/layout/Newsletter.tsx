import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { NewsletterEmail } from '@bimi/contracts/newsletter';
import { useShell } from '../app/shell-context';
import { subscribeToNewsletter } from './newsletter-jsonp';

type Status = { kind: 'idle' | 'sending' } | { kind: 'success' | 'error'; message: string };

/** Spec §5, §7, §8: the footer's newsletter sign-up. */
export function Newsletter() {
  const { config } = useShell();
  const [email, setEmail] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = NewsletterEmail.safeParse(email);
    if (!parsed.success) {
      setStatus({ kind: 'error', message: parsed.error.issues[0]?.message ?? 'Enter a valid email address' });
      return;
    }
    setStatus({ kind: 'sending' });
    try {
      const answer = await subscribeToNewsletter(config.newsletterUrl, parsed.data);
      if (answer.result === 'success') {
        setEmail('');
        setStatus({ kind: 'success', message: 'Thanks for joining our newsletter!' });
        return;
      }
    } catch {
      // A timeout or a script that failed to load: the same answer as a refusal.
    }
    setStatus({ kind: 'error', message: 'Oops! Something went wrong.' });
  };

  return (
    <Box component="form" onSubmit={submit} noValidate aria-label="Newsletter sign-up">
      <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 700, mb: 1, color: 'inherit' }}>
        Get BIMI and DMARC news
      </Typography>
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Box
          component="input"
          type="email"
          name="email"
          required
          maxLength={256}
          placeholder="you@company.com"
          aria-label="Email address"
          value={email}
          onChange={(e: React.ChangeEvent<HTMLInputElement>) => setEmail(e.target.value)}
          sx={{
            flex: 1,
            minWidth: 0,
            px: 1.5,
            py: 1,
            borderRadius: 1,
            border: '1px solid rgba(255,255,255,.4)',
            bgcolor: 'rgba(255,255,255,.08)',
            color: 'inherit',
            font: 'inherit',
            '&::placeholder': { color: 'rgba(255,255,255,.7)' },
          }}
        />
        <Button type="submit" variant="contained" disabled={status.kind === 'sending'}>
          Subscribe
        </Button>
      </Box>
      <Typography role="status" aria-live="polite" variant="body2" sx={{ mt: 1, minHeight: 20 }} data-testid="newsletter-status">
        {'message' in status ? status.message : ''}
      </Typography>
    </Box>
  );
}
