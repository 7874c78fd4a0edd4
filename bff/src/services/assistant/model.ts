import OpenAI from 'openai';
import type { AssistantContext } from '@bimi/contracts/monitors';
import { stripSecretText } from './context';

export interface ModelSettings {
  url: string;
  apiKey: string;
  model: string;
}

const SYSTEM = [
  "You are the BIMI Store assistant. You answer questions about one domain's e-mail authentication",
  '(DMARC, SPF, DKIM, BIMI, the logo and its mark certificate) and whether its logo shows in Gmail,',
  'Apple Mail and Yahoo. Answer from the domain data given, briefly, with the exact records to publish',
  'when a record must change. Say so when the data does not tell.',
].join(' ');

/**
 * The assistant through an OpenAI-compatible chat completions endpoint (the openai SDK), streamed:
 * yields the answer's text as it arrives. Only the context goes out: spec §3's fields, with
 * fullDomainData, the history and the question stripped of secrets (services/assistant/context.ts).
 */
export async function* modelAnswer(settings: ModelSettings, context: AssistantContext, question: string, signal?: AbortSignal): AsyncGenerator<string> {
  const client = new OpenAI({ baseURL: settings.url, apiKey: settings.apiKey, maxRetries: 1, timeout: 60_000 });
  const { history, ...rest } = context;
  const stream = await client.chat.completions.create(
    {
      model: settings.model,
      stream: true,
      messages: [
        { role: 'system', content: SYSTEM },
        { role: 'system', content: `Assistant context (JSON): ${JSON.stringify(rest)}` },
        ...history.map((entry) => ({ role: entry.role, content: entry.text })),
        // The visitor's question is stripped as the stored history is: a pasted record carries keys and addresses too.
        { role: 'user', content: stripSecretText(question) },
      ],
    },
    { signal },
  );
  for await (const chunk of stream) {
    const text = chunk.choices[0]?.delta?.content;
    if (text) yield text;
  }
}
