import * as z from 'zod/mini';

/** The body of every 4xx/5xx JSON answer of the bff: a message fit to show or log. */
export const ApiError = z.object({
  message: z.string(),
});
export type ApiError = z.infer<typeof ApiError>;
