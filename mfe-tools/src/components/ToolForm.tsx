import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import type { ToolRun } from '../lib/useToolRun';
import { TextInput } from './TextInput';

/**
 * A checker's form: one row of fields and the button. Errors show under their field and are
 * announced; while a check runs the button says so and cannot be pressed twice.
 */
export function ToolForm({
  label,
  run,
  submitLabel,
  children,
}: {
  /** The form's accessible name, e.g. "DMARC inspector". */
  label: string;
  /** The fields, what is typed in them and their errors, and what submitting does. */
  run: Pick<ToolRun, 'fields' | 'values' | 'errors' | 'state' | 'setValue' | 'blur' | 'submit'> & { notes?: ToolRun['notes'] };
  submitLabel: string;
  children?: ReactNode;
}) {
  const { fields, values, errors } = run;
  const busy = run.state.status === 'running';
  return (
    <Box
      component="form"
      aria-label={label}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        run.submit();
      }}
      sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap', mt: 3 }}
    >
      {fields.map((field, index) => (
        <TextInput
          key={field.name}
          name={field.name}
          label={field.optional ? `${field.label} (optional)` : field.label}
          value={values[field.name] ?? ''}
          placeholder={field.placeholder}
          error={Boolean(errors[field.name])}
          helperText={errors[field.name] ?? run.notes?.[field.name] ?? field.helperText ?? ' '}
          onChange={(value) => run.setValue(field.name, value)}
          onBlur={() => run.blur(field.name)}
          autoFocus={index === 0 && !values[field.name]}
          sx={{ flex: index === 0 ? '2 1 260px' : '1 1 160px' }}
          inputProps={{ inputMode: 'url', autoComplete: 'off', autoCapitalize: 'none', spellCheck: false, 'aria-invalid': Boolean(errors[field.name]) }}
        />
      ))}
      {children}
      <Button
        type="submit"
        variant="contained"
        size="large"
        disabled={busy}
        startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
        sx={{ flex: { xs: '1 1 100%', sm: '0 0 auto' }, minHeight: 56 }}
      >
        {busy ? 'Checking…' : submitLabel}
      </Button>
    </Box>
  );
}
