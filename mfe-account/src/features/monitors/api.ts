import * as z from 'zod/mini';
import { CSRF_HEADER } from '@bimi/contracts/session';
import { AssistantConversation, AssistantStreamEvent, MONITOR_PATHS, MonitorDetail, MonitorListItem, type AssistantAnswer, type MonitorStatus } from '@bimi/contracts/monitors';
import { csrfTokenForWrite, CsrfTokenUnavailable } from '@bimi/session/client';
import { ApiFailure, callApi } from '@bimi/session/api';

export const recheckMonitor = (domain: string) => callApi(MONITOR_PATHS.check(domain), { method: 'POST', answer: MonitorDetail });
export const setMonitorStatus = (domain: string, status: MonitorStatus) => callApi(MONITOR_PATHS.status(domain), { method: 'PUT', body: { status }, answer: MonitorListItem });
export const deleteMonitor = (domain: string) => callApi(MONITOR_PATHS.monitor(domain), { method: 'DELETE', answer: z.object({}) });
export const loadConversation = (domain: string) => callApi(MONITOR_PATHS.assistant(domain), { answer: AssistantConversation });

/** A 429 in our words, with the wait the server named (Retry-After, seconds). */
export function tooManyMessage(what: 'questions' | 'checks', retryAfterSeconds: number | null): string {
  const minutes = retryAfterSeconds && retryAfterSeconds > 0 ? Math.ceil(retryAfterSeconds / 60) : null;
  const wait = minutes ? `in ${minutes} minute${minutes === 1 ? '' : 's'}` : 'a little later';
  return what === 'questions'
    ? `You have asked the assistant many questions in a short time. You can ask again ${wait}.`
    : `This domain was checked many times in a short time. You can check it again ${wait}; it is also checked every day on its own.`;
}

/**
 * Asks the assistant; the answer arrives as JSON lines (contracts/monitors AssistantStreamEvent):
 * `delta`s of text, then `done` with both stored entries, or `error`. `onDelta` gets the text so far.
 */
export async function askAssistant(domain: string, question: string, onDelta: (textSoFar: string) => void, signal?: AbortSignal): Promise<AssistantAnswer> {
  let token: string;
  try {
    token = await csrfTokenForWrite();
  } catch (error) {
    // Never a question without its token: the service is unavailable (issue 31).
    if (error instanceof CsrfTokenUnavailable) throw new ApiFailure(error.message, error.status || 503);
    throw error;
  }
  let res: Response;
  try {
    res = await fetch(MONITOR_PATHS.assistant(domain), {
      method: 'POST',
      credentials: 'same-origin',
      signal,
      headers: { accept: 'application/x-ndjson', 'content-type': 'application/json', [CSRF_HEADER]: token },
      body: JSON.stringify({ question }),
    });
  } catch {
    throw new ApiFailure('The assistant could not be reached. Check your connection and try again.', 0);
  }
  if (res.status === 429) throw new ApiFailure(tooManyMessage('questions', Number(res.headers.get('retry-after')) || null), 429);
  if (!res.ok || !res.body) {
    const data = (await res.json().catch(() => null)) as { message?: unknown } | null;
    throw new ApiFailure(typeof data?.message === 'string' ? data.message : 'The assistant could not answer. Please try again.', res.status);
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffered += value;
    const lines = buffered.split('\n');
    buffered = done ? '' : (lines.pop() ?? '');
    for (const line of lines) {
      if (!line.trim()) continue;
      const event = AssistantStreamEvent.safeParse(JSON.parse(line));
      if (!event.success) continue;
      if (event.data.type === 'delta') {
        text += event.data.text;
        onDelta(text);
      } else if (event.data.type === 'error') {
        throw new ApiFailure(event.data.message, 200);
      } else {
        return { question: event.data.question, answer: event.data.answer, source: event.data.source };
      }
    }
    if (done) break;
  }
  throw new ApiFailure('The answer was cut off. Please ask again.', 200);
}
