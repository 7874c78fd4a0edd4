import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { Contact, ContactInput, ContactKind } from '@bimi/contracts/account';

/** The roles a certificate's details ask a contact for, in the order the form lists them. */
export const CONTACT_ROLES = [
  { kind: 'legal', label: 'Legal contact' },
  { kind: 'technical', label: 'Technical contact' },
  { kind: 'billing', label: 'Billing contact' },
] as const satisfies readonly { kind: ContactKind; label: string }[];

type Field = 'name' | 'email' | 'phone';

export interface NewContactFormProps {
  /** Names the form for screen readers ("Verified Mark Certificate, logo 1"). */
  name: string;
  /** Stores the contact in the account's settings and answers it, or throws with a message fit to show. */
  onCreate: (input: ContactInput) => Promise<Contact>;
  /** The contact was stored: use it for these roles. */
  onCreated: (contact: Contact, roles: ContactKind[]) => void;
  onCancel: () => void;
}

/**
 * A contact made where it is needed (issue 30: the details sent the buyer to Settings, in a new tab,
 * one role at a time): one person, for every role ticked (all three unless the buyer says otherwise),
 * in one step. Checked by the same schema as the contacts page and the bff, and kept in the account.
 */
export function NewContactForm({ name, onCreate, onCreated, onCancel }: NewContactFormProps) {
  const [values, setValues] = useState<Record<Field, string>>({ name: '', email: '', phone: '' });
  const [roles, setRoles] = useState<Record<ContactKind, boolean>>({ legal: true, technical: true, billing: true });
  const [errors, setErrors] = useState<Partial<Record<Field | 'roles', string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const chosen = CONTACT_ROLES.filter((role) => roles[role.kind]).map((role) => role.kind);

  const save = async () => {
    // Loaded when first used, as for organizations: the account schemas bring the phone rules.
    const { ContactInput } = await import('@bimi/contracts/account');
    const checked = ContactInput.safeParse({ kind: chosen[0] ?? 'legal', name: values.name, email: values.email, phone: values.phone.trim() || null, jobTitle: null, company: null });
    const found: Partial<Record<Field | 'roles', string>> = {};
    if (!checked.success) {
      for (const issue of checked.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'email' || field === 'phone') && !found[field]) found[field] = issue.message;
      }
    }
    if (chosen.length === 0) found.roles = 'Choose at least one role for this contact';
    setErrors(found);
    if (!checked.success || chosen.length === 0) return;
    setSaving(true);
    setFailure(null);
    try {
      onCreated(await onCreate(checked.data), chosen);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : 'The contact could not be saved.');
      setSaving(false);
    }
  };

  const field = (key: Field, label: string, extra: { type?: string; helper?: string; autoComplete?: string } = {}) => (
    <TextField
      size="small"
      label={label}
      type={extra.type}
      value={values[key]}
      onChange={(e) => {
        setValues({ ...values, [key]: e.target.value });
        // A message about what was typed before goes once the field changes; Save checks again.
        if (errors[key]) setErrors({ ...errors, [key]: undefined });
      }}
      error={Boolean(errors[key])}
      helperText={errors[key] ?? extra.helper}
      autoComplete={extra.autoComplete}
      fullWidth
    />
  );

  return (
    <Box
      role="group"
      aria-label={`New contact for ${name}`}
      data-testid="new-contact"
      sx={{ mt: 1.5, p: { xs: 1.5, sm: 2 }, border: '1px dashed', borderColor: 'divider', borderRadius: 2, minWidth: 0 }}
    >
      <Typography sx={{ fontWeight: 600, mb: 1.5 }}>New contact</Typography>
      <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
        {field('name', 'Full name', { autoComplete: 'name' })}
        {field('email', 'Email', { type: 'email', autoComplete: 'email' })}
        {field('phone', 'Phone (optional)', { type: 'tel', autoComplete: 'tel', helper: 'With the country code, e.g. +1 415 555 0100' })}
      </Box>
      <Box role="group" aria-label="Use this contact as" sx={{ display: 'flex', flexWrap: 'wrap', columnGap: 2, mt: 1 }}>
        {CONTACT_ROLES.map((role) => (
          <FormControlLabel
            key={role.kind}
            control={<Checkbox size="small" checked={roles[role.kind]} onChange={(e) => setRoles({ ...roles, [role.kind]: e.target.checked })} />}
            label={role.label}
          />
        ))}
      </Box>
      {errors.roles && (
        <Typography role="alert" color="error" variant="body2">
          {errors.roles}
        </Typography>
      )}
      {failure && (
        <Alert severity="error" sx={{ mt: 1 }}>
          {failure}
        </Alert>
      )}
      <Box sx={{ display: 'flex', gap: 1, mt: 1.5, flexWrap: 'wrap' }}>
        <Button variant="contained" onClick={save} disabled={saving}>
          {saving ? 'Saving…' : 'Save contact'}
        </Button>
        <Button onClick={onCancel} disabled={saving}>
          Cancel
        </Button>
      </Box>
    </Box>
  );
}
