import * as z from 'zod/mini';
import { ApiError, shownMessage } from '@bimi/contracts/api-error';
import { ACCOUNT_BASE_PATH } from '@bimi/contracts/api-paths';
import { CSRF_HEADER } from '@bimi/contracts/session';
import { csrfTokenForWrite, CsrfTokenUnavailable, getSession, SERVER_UNREACHABLE_MESSAGE } from './client';

/**
 * A call the bff refused or that could not be made; `message` is fit to show: a validation
 * message's field code name (`currentPassword: …`) is taken off into `field`, so a form can show
 * the words under that field and never the code name (issue 32).
 */
export class ApiFailure extends Error {
  readonly field: string | undefined;
  constructor(
    message: string,
    readonly status: number,
    /** Which refusal it is, where the bff says (`ApiError.code`). */
    readonly code?: string,
  ) {
    const shown = shownMessage(message);
    super(shown.text);
    this.field = shown.field;
  }
}

const GENERIC_MESSAGE = 'Something went wrong. Please try again.';

/**
 * A JSON call to the bff, for every remote. Writes carry the CSRF token the bff asks for; the
 * answer is checked against its contract, so a page never renders a shape it does not know; a 401
 * on an account call means the session ended, so the session store is refreshed (the shell then
 * sends the user to sign in).
 */
export async function callApi<T>(
  path: string,
  { method = 'GET', body, answer }: { method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; body?: unknown; answer: z.ZodMiniType<T> },
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') {
    // Never a write without its token: when none comes, the service is unavailable (issue 31).
    try {
      headers[CSRF_HEADER] = await csrfTokenForWrite();
    } catch (error) {
      if (error instanceof CsrfTokenUnavailable) throw new ApiFailure(error.message, error.status || 503);
      throw error;
    }
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiFailure(SERVER_UNREACHABLE_MESSAGE, 0);
  }
  const data: unknown = res.status === 204 ? {} : await res.json().catch(() => null);
  if (!res.ok) {
    if (res.status === 401 && path.startsWith(`${ACCOUNT_BASE_PATH}/`)) void getSession();
    const error = ApiError.safeParse(data);
    throw new ApiFailure(error.success ? error.data.message : GENERIC_MESSAGE, res.status, error.success ? error.data.code : undefined);
  }
  const parsed = answer.safeParse(data);
  if (!parsed.success) throw new ApiFailure(GENERIC_MESSAGE, res.status);
  return parsed.data;
}

export function failureMessage(error: unknown): string {
  return error instanceof ApiFailure ? error.message : GENERIC_MESSAGE;
}
