import * as z from 'zod/mini';
import { ApiError } from '@bimi/contracts/api-error';
import { CSRF_HEADER } from '@bimi/contracts/auth';
import { getCsrfToken, getSession } from '@bimi/session/client';

/** A call the bff refused or that could not be made; `message` is fit to show. */
export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const GENERIC_MESSAGE = 'Something went wrong. Please try again.';

/**
 * A JSON call to the bff's auth or account API. Writes carry the CSRF token the bff asks
 * for; the answer is checked against its contract; a 401 means the session ended, so the
 * session store is refreshed (the shell then sends the user to sign in).
 */
export async function callApi<T>(
  path: string,
  { method = 'GET', body, answer }: { method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; body?: unknown; answer: z.ZodMiniType<T> },
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers[CSRF_HEADER] = (await getCsrfToken()) ?? '';
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiFailure('The server could not be reached. Check your connection and try again.', 0);
  }
  const data: unknown = res.status === 204 ? {} : await res.json().catch(() => null);
  if (!res.ok) {
    if (res.status === 401 && path.startsWith('/api/account/')) void getSession();
    const error = ApiError.safeParse(data);
    throw new ApiFailure(error.success ? error.data.message : GENERIC_MESSAGE, res.status);
  }
  const parsed = answer.safeParse(data);
  if (!parsed.success) throw new ApiFailure(GENERIC_MESSAGE, res.status);
  return parsed.data;
}

export function failureMessage(error: unknown): string {
  return error instanceof ApiFailure ? error.message : GENERIC_MESSAGE;
}

/** The first message per field of a form that does not pass its schema. */
export type FieldErrors = Partial<Record<string, string>>;

export function checkForm<T>(schema: z.ZodMiniType<T>, values: unknown): { data: T; errors: null } | { data: null; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? 'form');
    errors[field] ??= issue.message;
  }
  return { data: null, errors };
}

/** Where to return after signing in: a path on this site only (an open redirect otherwise). */
export function safeReturnPath(value: string | null, fallback = '/account/dashboard'): string {
  if (!value) return fallback;
  try {
    const url = new URL(value, window.location.origin);
    if (url.origin !== window.location.origin) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
