import { useState, type FormEvent } from 'react';
import styled from '@emotion/styled';
import { NewsletterEmail } from '@bimi/contracts/newsletter';
import { useShell } from '../app/shell-context';
import { subscribeToNewsletter } from './newsletter-jsonp';
import { Button } from './plain';

const Heading = styled.h2({ margin: '0 0 8px', fontSize: '1rem', fontWeight: 700, lineHeight: 1.75, color: 'inherit' });
const Email = styled.input({
  flex: 1,
  minWidth: 0,
  padding: '8px 12px',
  borderRadius: 10,
  border: '1px solid rgba(255,255,255,.4)',
  background: 'rgba(255,255,255,.08)',
  color: 'inherit',
  font: 'inherit',
  '&::placeholder': { color: 'rgba(255,255,255,.7)' },
});
const Status = styled.p({ margin: '8px 0 0', minHeight: 20, fontSize: '0.875rem', lineHeight: 1.43 });

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
    <form onSubmit={submit} noValidate aria-label="Newsletter sign-up">
      <Heading>Get BIMI and DMARC news</Heading>
      <div style={{ display: 'flex', gap: 8 }}>
        <Email type="email" name="email" required maxLength={256} placeholder="you@company.com" aria-label="Email address" value={email} onChange={(e) => setEmail(e.target.value)} />
        <Button type="submit" variant="contained" disabled={status.kind === 'sending'}>
          Subscribe
        </Button>
      </div>
      <Status role="status" aria-live="polite" data-testid="newsletter-status">
        {'message' in status ? status.message : ''}
      </Status>
    </form>
  );
}
