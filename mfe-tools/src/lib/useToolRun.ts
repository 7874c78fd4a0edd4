import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { ToolAnswer, ToolName } from '@bimi/contracts/tools';
import { keptNote, type FieldResult } from './domain';
import { runTool, ToolRequestError } from './api';

/** One input of a checker's form; its name is also its query parameter in the shareable URL. */
export interface ToolField {
  name: string;
  label: string;
  /** Judges the field; `values` holds the other fields, for a rule that depends on one (a sender needs an IP). */
  validate: (raw: string, values: Readonly<Record<string, string>>) => FieldResult;
  /** An optional field (a DKIM selector) may be left empty; the check runs without it. */
  optional?: boolean;
  placeholder?: string;
  helperText?: string;
}

export type ToolRunState<Tool extends ToolName> =
  | { status: 'idle' }
  | { status: 'running'; query: Record<string, string> }
  | { status: 'done'; query: Record<string, string>; answer: ToolAnswer<Tool> }
  | { status: 'failed'; query: Record<string, string>; error: ToolRequestError };

type Values = Record<string, string>;

function validateAll(fields: readonly ToolField[], values: Values) {
  const errors: Values = {};
  const query: Values = {};
  for (const field of fields) {
    const raw = values[field.name] ?? '';
    if (field.optional && raw.trim() === '') continue;
    const result = field.validate(raw, values);
    if (result.ok) query[field.name] = result.value;
    else errors[field.name] = result.message;
  }
  return { errors, query, valid: Object.keys(errors).length === 0 };
}

/**
 * A checker's form and its run, driven by the address bar: submitting puts the query in the
 * URL (`?domain=example.com`), and whatever query the URL holds runs. So a shared link, a
 * reload or Back all rerun the same check, and the page never holds a result the URL does
 * not describe.
 */
export function useToolRun<Tool extends ToolName>(tool: Tool, fields: readonly ToolField[]) {
  const [params, setParams] = useSearchParams();
  const urlValues = useMemo(() => {
    const values: Values = {};
    for (const field of fields) values[field.name] = params.get(field.name) ?? '';
    return values;
  }, [params, fields]);
  const urlKey = JSON.stringify(urlValues);
  const requested = fields.some((field) => !field.optional && urlValues[field.name] !== '');

  const [values, setValues] = useState<Values>(urlValues);
  const [errors, setErrors] = useState<Values>({});
  // What a forgiving field kept of the input (a pasted URL or address reduced to its domain).
  const [notes, setNotes] = useState<Values>({});
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<ToolRunState<Tool>>({ status: 'idle' });

  // Back and Forward change the URL under the form: show what is being checked.
  useEffect(() => {
    setValues(JSON.parse(urlKey) as Values);
  }, [urlKey]);

  useEffect(() => {
    if (!requested) {
      setState({ status: 'idle' });
      return;
    }
    // A shared link is input too: it is validated like the form before anything is sent.
    const checked = validateAll(fields, JSON.parse(urlKey) as Values);
    setErrors(checked.errors);
    if (!checked.valid) {
      setState({ status: 'idle' });
      return;
    }
    const controller = new AbortController();
    setState({ status: 'running', query: checked.query });
    runTool(tool, checked.query, { signal: controller.signal }).then(
      (answer) => setState({ status: 'done', query: checked.query, answer }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        const failure = error instanceof ToolRequestError ? error : new ToolRequestError('network', 'The check could not run. Please try again.');
        setState({ status: 'failed', query: checked.query, error: failure });
      },
    );
    return () => controller.abort();
  }, [tool, fields, urlKey, requested, attempt]);

  const setValue = useCallback((name: string, value: string) => {
    setValues((current) => ({ ...current, [name]: value }));
    setNotes((current) => (name in current ? Object.fromEntries(Object.entries(current).filter(([key]) => key !== name)) : current));
    // An error stays until the user fixes it; it is re-judged on blur and submit.
    setErrors((current) => {
      if (!(name in current)) return current;
      const { [name]: _cleared, ...rest } = current;
      return rest;
    });
  }, []);

  /** Spec §5: a domain is checked on blur as well as on submit; an empty untouched field is left alone. */
  const blur = useCallback(
    (name: string) => {
      const field = fields.find((candidate) => candidate.name === name);
      const raw = values[name] ?? '';
      if (!field || raw === '' || (field.optional && raw.trim() === '')) return;
      const result = field.validate(raw, values);
      setErrors((current) => {
        const { [name]: _previous, ...rest } = current;
        return result.ok ? rest : { ...rest, [name]: result.message };
      });
      // The field shows what will be checked: a pasted URL or address becomes its domain.
      const note = result.ok && field.name === 'domain' ? keptNote(raw, result.value) : undefined;
      if (result.ok && note) {
        setValues((current) => ({ ...current, [name]: result.value }));
        setNotes((current) => ({ ...current, [name]: note }));
      }
    },
    [fields, values],
  );

  const submit = useCallback(() => {
    const checked = validateAll(fields, values);
    setErrors(checked.errors);
    if (!checked.valid) return false;
    const kept = checked.query.domain === undefined ? undefined : keptNote(values.domain ?? '', checked.query.domain);
    if (kept) setNotes((current) => ({ ...current, domain: kept }));
    setValues((current) => ({ ...current, ...checked.query }));
    const next = new URLSearchParams(checked.query);
    if (next.toString() === new URLSearchParams(Object.entries(urlValues).filter(([, value]) => value !== '')).toString()) {
      // The same query again: the URL cannot change, so run it again explicitly.
      setAttempt((count) => count + 1);
    } else {
      setParams(next);
    }
    return true;
  }, [fields, values, urlValues, setParams]);

  const retry = useCallback(() => setAttempt((count) => count + 1), []);

  return { fields, values, errors, notes, state, setValue, blur, submit, retry };
}

/** A checker's run as its form and result read it. */
export type ToolRun<Tool extends ToolName = ToolName> = ReturnType<typeof useToolRun<Tool>>;
