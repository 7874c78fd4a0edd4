import { TOOL_PATHS } from '@bimi/contracts/api-paths';
import type { ToolAnswer, ToolName, VmcUpload } from '@bimi/contracts/tools';

/**
 * The tools' one API client: every checker asks GET /api/tools/<tool>?… and gets the
 * contract's answer, checked here with the same zod schema the bff answers with, and answered
 * by the tool asked, so a page only ever renders that tool's answer, its details in their shape.
 */

export type ToolFailureKind = 'rejected' | 'rate-limited' | 'network' | 'server' | 'malformed' | 'aborted';

/** Why a check did not produce an answer, in words fit to show beside a Retry button. */
export class ToolRequestError extends Error {
  constructor(
    readonly kind: ToolFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ToolRequestError';
  }
}

type Fetch = typeof fetch;

/**
 * The schemas an answer is checked with (Zod and the tools' contract, about 13 KB gzip): they load
 * with the first check, beside its request, not with the page, which needs neither to show its form
 * (issue 34).
 */
function answerSchemas() {
  return Promise.all([import('@bimi/contracts/tools'), import('@bimi/contracts/api-error')]).then(([tools, apiError]) => ({ ...tools, ...apiError }));
}
type AnswerSchemas = Awaited<ReturnType<typeof answerSchemas>>;

const NETWORK_FAILURE = 'Could not reach the server. Check your connection and try again.';

/** What the bff said when it refused: its `{message}`, or a plain sentence for its status. */
async function failureFrom(response: Response, { ApiError, shownMessage }: AnswerSchemas): Promise<ToolRequestError> {
  let message: string | undefined;
  try {
    const parsed = ApiError.safeParse(await response.json());
    if (parsed.success && parsed.data.message.trim()) message = shownMessage(parsed.data.message).text;
  } catch {
    // A proxy's HTML error page: fall back to the status below.
  }
  if (response.status === 429) {
    const wait = Number(response.headers.get('retry-after'));
    const when = Number.isFinite(wait) && wait > 0 ? `in ${wait} second${wait === 1 ? '' : 's'}` : 'in a minute';
    return new ToolRequestError('rate-limited', `Too many checks from your network. Please try again ${when}.`, 429);
  }
  if (response.status >= 400 && response.status < 500) {
    return new ToolRequestError('rejected', message ?? `The check was refused (HTTP ${response.status}).`, response.status);
  }
  return new ToolRequestError('server', 'The server could not finish the check. Please try again.', response.status);
}

async function answerFrom<Tool extends ToolName>(tool: Tool, request: Promise<Response>): Promise<ToolAnswer<Tool>> {
  const loading = answerSchemas();
  // Awaited after the request: a request that fails first must not leave this rejection unhandled.
  loading.catch(() => {});
  let response: Response;
  let schemas: AnswerSchemas;
  try {
    response = await request;
    schemas = await loading;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw new ToolRequestError('aborted', 'The check was cancelled.');
    throw new ToolRequestError('network', NETWORK_FAILURE);
  }
  if (!response.ok) throw await failureFrom(response, schemas);
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new ToolRequestError('malformed', 'The server sent an answer the page could not read. Please try again.', response.status);
  }
  const parsed = schemas.ToolAnswer.safeParse(body);
  if (!parsed.success || !schemas.isAnswerOf(parsed.data, tool)) {
    throw new ToolRequestError('malformed', 'The server sent an answer the page could not read. Please try again.', response.status);
  }
  return parsed.data;
}

/** Runs one checker: `runTool('dmarc', {domain: 'example.com'})`. Empty query values are left out. */
export function runTool<Tool extends ToolName>(tool: Tool, query: Readonly<Record<string, string>>, options: { signal?: AbortSignal; fetch?: Fetch } = {}): Promise<ToolAnswer<Tool>> {
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== ''));
  const doFetch = options.fetch ?? fetch;
  return answerFrom(tool, doFetch(`${TOOL_PATHS.tool(tool)}?${search}`, { headers: { accept: 'application/json' }, signal: options.signal ?? null }));
}

/** The VMC validator's upload: the PEM text the user chose (and the domain it must name), checked by the bff. */
export function validateUploadedVmc(upload: VmcUpload, options: { signal?: AbortSignal; fetch?: Fetch } = {}): Promise<ToolAnswer<'vmc'>> {
  const doFetch = options.fetch ?? fetch;
  return answerFrom(
    'vmc',
    doFetch(TOOL_PATHS.tool('vmc'), {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify(upload),
      signal: options.signal ?? null,
    }),
  );
}
