/**
 * What a rule refuses, in words the visitor can act on. Services throw it; they know nothing of
 * HTTP: the error handler (app.ts) answers it with the status of its kind.
 */
export type RefusalKind = 'invalid' | 'unavailable';

export const REFUSAL_STATUS: Record<RefusalKind, 400 | 503> = { invalid: 400, unavailable: 503 };

export class Refusal extends Error {
  override name = 'Refusal';
  constructor(
    readonly kind: RefusalKind,
    message: string,
  ) {
    super(message);
  }

  get statusCode(): number {
    return REFUSAL_STATUS[this.kind];
  }
}
