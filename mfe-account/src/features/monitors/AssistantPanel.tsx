import { useEffect, useRef, useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { ASSISTANT_QUESTION_MAX, AssistantRequest, type ConversationEntry } from '@bimi/contracts/monitors';
import { failureMessage } from '@bimi/session/api';
import { askAssistant, loadConversation } from './api';
import { LocalTime } from '../../components/LocalTime';

export const SUGGESTED_QUESTIONS = ['Why is my logo not showing?', 'What should I fix first?', 'Is my DMARC policy strong enough?', 'When does my certificate expire?'];

function Entry({ entry, streaming = false }: { entry: ConversationEntry; streaming?: boolean }) {
  const mine = entry.role === 'user';
  return (
    <Box
      component="li"
      data-testid={mine ? 'assistant-question' : 'assistant-answer'}
      data-streaming={streaming || undefined}
      sx={{ listStyle: 'none', display: 'grid', justifyItems: mine ? 'end' : 'start', gap: 0.25 }}
    >
      <Box
        sx={{
          maxWidth: '92%',
          px: 1.5,
          py: 1,
          borderRadius: 2,
          bgcolor: mine ? 'primary.main' : '#f1f4f9',
          color: mine ? 'primary.contrastText' : 'text.primary',
          whiteSpace: 'pre-wrap',
          overflowWrap: 'anywhere',
          fontSize: 14.5,
        }}
      >
        {entry.text || '…'}
      </Box>
      <Typography component="span" variant="caption" color="text.secondary">
        {mine ? 'You' : 'Assistant'}
        {entry.timestamp && (
          <>
            {' · '}
            <LocalTime iso={entry.timestamp} />
          </>
        )}
      </Typography>
    </Box>
  );
}

/** Questions about this domain, answered from its own checks; the answer streams in. */
export function AssistantPanel({ domain }: { domain: string }) {
  const [entries, setEntries] = useState<ConversationEntry[]>([]);
  const [pending, setPending] = useState<{ question: ConversationEntry; answer: string } | null>(null);
  const [question, setQuestion] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const list = useRef<HTMLOListElement>(null);

  useEffect(() => {
    loadConversation(domain).then(
      (conversation) => setEntries(conversation.entries),
      (failure: unknown) => setLoadError(failureMessage(failure)),
    );
    return () => abort.current?.abort();
  }, [domain]);

  // The newest entry in view: the conversation scrolls within its own box, never the page (the
  // page's scrollIntoView took a visitor opening a monitor down to the assistant, past its heading).
  useEffect(() => {
    const box = list.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [entries.length, pending?.answer]);

  const ask = async (text: string) => {
    const checked = AssistantRequest.safeParse({ question: text });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Please enter a question');
      return;
    }
    setError(null);
    setQuestion('');
    const asked: ConversationEntry = { role: 'user', text: checked.data.question, timestamp: new Date().toISOString() };
    setPending({ question: asked, answer: '' });
    abort.current = new AbortController();
    try {
      const answered = await askAssistant(domain, checked.data.question, (soFar) => setPending({ question: asked, answer: soFar }), abort.current.signal);
      setEntries((list) => [...list, answered.question, answered.answer]);
    } catch (failure) {
      if (abort.current.signal.aborted) return;
      setError(failureMessage(failure));
      setQuestion(checked.data.question);
    } finally {
      setPending(null);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!pending) void ask(question);
  };

  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby="assistant-heading"
      data-testid="assistant-panel"
      sx={{ p: 2.5, borderRadius: 3, display: 'flex', flexDirection: 'column', gap: 1.5 }}
    >
      <Box>
        <Typography id="assistant-heading" variant="h2" sx={{ fontSize: 18, fontWeight: 700 }}>
          Ask the assistant
        </Typography>
        <Typography color="text.secondary" sx={{ fontSize: 14 }}>
          Answers come from {domain}&apos;s own records and checks.
        </Typography>
      </Box>
      {loadError && <Alert severity="warning">{loadError}</Alert>}
      <Box component="ol" ref={list} aria-label="Conversation" aria-live="polite" sx={{ m: 0, p: 0, display: 'grid', gap: 1.5, maxHeight: 420, overflowY: 'auto' }}>
        {entries.map((entry, index) => (
          <Entry key={`${entry.timestamp}-${index}`} entry={entry} />
        ))}
        {pending && (
          <>
            <Entry entry={pending.question} />
            <Entry entry={{ role: 'assistant', text: pending.answer, timestamp: '' }} streaming />
          </>
        )}
      </Box>
      {entries.length === 0 && !pending && (
        <Typography color="text.secondary" sx={{ fontSize: 14 }}>
          Try one of these:
        </Typography>
      )}
      <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }} aria-label="Suggested questions" role="group">
        {SUGGESTED_QUESTIONS.map((suggestion) => (
          <Chip key={suggestion} label={suggestion} variant="outlined" clickable disabled={Boolean(pending)} onClick={() => void ask(suggestion)} />
        ))}
      </Box>
      <Box component="form" onSubmit={submit} noValidate aria-label="Ask the assistant" sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          fullWidth
          size="small"
          label="Your question"
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          error={Boolean(error)}
          helperText={error ?? ' '}
          disabled={Boolean(pending)}
          slotProps={{ htmlInput: { maxLength: ASSISTANT_QUESTION_MAX } }}
        />
        <Button type="submit" variant="contained" disabled={Boolean(pending)} sx={{ mt: 0.25, flexShrink: 0 }}>
          {pending ? 'Answering…' : 'Ask'}
        </Button>
      </Box>
    </Paper>
  );
}
