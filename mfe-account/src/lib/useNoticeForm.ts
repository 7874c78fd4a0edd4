import { useState } from 'react';
import type * as z from 'zod/mini';
import { ApiFailure, failureMessage } from '@bimi/session/api';
import { checkForm, type FieldErrors } from './api';

/** What a form says above its fields once it was sent. */
export type FormNotice = { severity: 'success' | 'info' | 'error'; text: string };

/**
 * A form that answers in a notice above its fields. `submit(values)` checks the values against
 * the form's schema (messages under the fields, nothing sent), then `send` makes the call and
 * returns the notice to show; a refused or failed call shows its message instead.
 */
export function useNoticeForm<T>(schema: z.ZodMiniType<T>, send: (data: T) => Promise<FormNotice>) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [notice, setNotice] = useState<FormNotice | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (values: unknown) => {
    const checked = checkForm(schema, values);
    setErrors(checked.errors ?? {});
    if (!checked.data) return;
    setBusy(true);
    try {
      setNotice(await send(checked.data));
    } catch (error) {
      // A refusal about one of the form's fields is shown under that field, in words only.
      const field = error instanceof ApiFailure ? error.field : undefined;
      if (field && values && typeof values === 'object' && field in values) setErrors({ [field]: failureMessage(error) });
      else setNotice({ severity: 'error', text: failureMessage(error) });
    }
    setBusy(false);
  };
  return { errors, notice, busy, submit };
}
