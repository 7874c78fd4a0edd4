import { useId, useState, type ChangeEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ProductId } from '@bimi/catalog/products';
import type { Contact, ContactInput, Organization } from '@bimi/contracts/account';
import { AGENCY_LEVELS, TRADEMARK_STATUSES } from '@bimi/contracts/orders';
import { checkLogo, usesAgencyLevel, type DetailsDraft, type DetailsErrors } from './certificate-details';
import { CONTACT_ROLES, NewContactForm } from './NewContactForm';
import { VISUALLY_HIDDEN } from './theme';

export interface CertificateDetailsFormProps {
  /** Names the fields of this certificate for screen readers ("Verified Mark Certificate, logo 1"). */
  name: string;
  productId: ProductId;
  draft: DetailsDraft;
  errors: DetailsErrors;
  organizations: readonly Organization[];
  contacts: readonly Contact[];
  onChange: (draft: DetailsDraft) => void;
  /** Creates an organization and answers its id, or throws with a message fit to show. */
  onCreateOrganization: (name: string) => Promise<string>;
  /** Stores a contact in the account and answers it (the caller adds it to `contacts`), or throws with a message fit to show. */
  onCreateContact: (input: ContactInput) => Promise<Contact>;
}

/** The validation guide's details for one certificate: organization, domains, logo, trademark or agency, contacts. */
export function CertificateDetailsForm({ name, productId, draft, errors, organizations, contacts, onChange, onCreateOrganization, onCreateContact }: CertificateDetailsFormProps) {
  const fileId = useId();
  const [addingContact, setAddingContact] = useState(false);
  const [newOrganization, setNewOrganization] = useState('');
  const [organizationFailure, setOrganizationFailure] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const set = (patch: Partial<DetailsDraft>) => onChange({ ...draft, ...patch });

  const createOrganization = async () => {
    // The same name rule as the organizations page and the bff (human text, at most 200 characters).
    // Loaded when first used: the account schemas bring the phone rules (libphonenumber, about
    // 35 KB gzip), which the checkout page does not need to show.
    const { OrganizationCreate } = await import('@bimi/contracts/account');
    const checked = OrganizationCreate.safeParse({ name: newOrganization });
    if (!checked.success) {
      setOrganizationFailure(checked.error.issues[0]?.message ?? 'Enter the organization name');
      return;
    }
    setCreating(true);
    setOrganizationFailure(null);
    try {
      const id = await onCreateOrganization(checked.data.name);
      set({ organizationId: id });
      setNewOrganization('');
    } catch (error) {
      setOrganizationFailure(error instanceof Error ? error.message : 'The organization could not be created.');
    }
    setCreating(false);
  };

  const readLogo = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    let svg: string;
    try {
      svg = await file.text();
    } catch {
      // A file the browser cannot read (moved, or no longer permitted) is named a failure, never taken.
      set({ logo: { name: file.name, svg: '', failures: ['The file could not be read. Choose it again.'], warnings: [] } });
      return;
    }
    set({ logo: await checkLogo(file.name, svg) });
  };

  return (
    <Stack spacing={2.5} role="group" aria-label={`Details for ${name}`}>
      <Box>
        <TextField
          select
          label="Organization"
          value={draft.organizationId}
          onChange={(e) => set({ organizationId: e.target.value })}
          error={Boolean(errors.organizationId)}
          helperText={errors.organizationId ?? 'The organization that owns the mark, as in the trademark registration.'}
          fullWidth
          slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
        >
          <option value="">{organizations.length === 0 ? 'None yet: create one below' : 'Choose an organization'}</option>
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </TextField>
        <Box sx={{ display: 'flex', gap: 1, mt: 1.5, flexWrap: { xs: 'wrap', sm: 'nowrap' } }}>
          <TextField size="small" label="New organization name" value={newOrganization} onChange={(e) => setNewOrganization(e.target.value)} sx={{ flex: 1, minWidth: 200 }} />
          <Button variant="outlined" onClick={createOrganization} disabled={creating || newOrganization.trim() === ''}>
            Create organization
          </Button>
        </Box>
        {organizationFailure && (
          <Alert severity="error" sx={{ mt: 1 }}>
            {organizationFailure}
          </Alert>
        )}
      </Box>

      <Box component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
        <Typography component="legend" sx={{ fontWeight: 600, mb: 1 }}>
          Domains ({draft.domains.length})
        </Typography>
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)' } }}>
          {draft.domains.map((domain, index) => (
            <TextField
              key={index}
              size="small"
              label={`Domain ${index + 1}`}
              placeholder="example.com"
              value={domain}
              onChange={(e) => set({ domains: draft.domains.map((d, i) => (i === index ? e.target.value : d)) })}
              error={Boolean(errors.domains?.[index])}
              helperText={errors.domains?.[index]}
              autoComplete="off"
              slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'none' } }}
            />
          ))}
        </Box>
      </Box>

      <Box>
        <Typography component="label" htmlFor={fileId} sx={{ fontWeight: 600, display: 'block', mb: 1 }}>
          Logo (SVG Tiny PS) for {name}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', position: 'relative' }}>
          {draft.logo && draft.logo.failures.length === 0 && (
            <Box
              component="img"
              alt={`Logo ${draft.logo.name}`}
              src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(draft.logo.svg)}`}
              sx={{ width: 56, height: 56, borderRadius: '50%', border: '1px solid', borderColor: 'divider', objectFit: 'cover' }}
            />
          )}
          {/* The native input stays the one focusable control (keyboard and screen readers); the label beside it looks like a button. */}
          <Box component="input" id={fileId} type="file" accept=".svg,image/svg+xml" onChange={readLogo} aria-describedby={`${fileId}-help`} sx={VISUALLY_HIDDEN} />
          <Box
            component="label"
            htmlFor={fileId}
            sx={{
              cursor: 'pointer',
              px: 1.5,
              py: 0.5,
              border: '1px solid',
              borderColor: 'primary.main',
              borderRadius: 2,
              color: 'primary.main',
              fontWeight: 600,
              fontSize: 14,
              '&:hover': { bgcolor: 'action.hover' },
              'input:focus-visible + &': { outline: '3px solid', outlineColor: 'primary.main', outlineOffset: 2 },
            }}
          >
            {draft.logo ? 'Choose another SVG file' : 'Choose SVG file'}
          </Box>
        </Box>
        <Typography id={`${fileId}-help`} variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {draft.logo
            ? `${draft.logo.name}: ${draft.logo.failures.length === 0 ? 'passes the SVG Tiny PS check.' : 'does not pass the SVG Tiny PS check.'}`
            : 'Square SVG Tiny PS, at most 32 KB, checked here as soon as you choose it.'}
        </Typography>
        {draft.logo && draft.logo.failures.length > 0 && (
          <Alert severity="error" sx={{ mt: 1 }} data-testid="logo-failures">
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {draft.logo.failures.map((f) => (
                <li key={f}>{f}</li>
              ))}
            </Box>
          </Alert>
        )}
        {draft.logo && draft.logo.warnings.length > 0 && draft.logo.failures.length === 0 && (
          <Alert severity="warning" sx={{ mt: 1 }}>
            {draft.logo.warnings.join(' ')}
          </Alert>
        )}
        {errors.logo && !(draft.logo && draft.logo.failures.length > 0) && (
          <Typography role="alert" color="error" variant="body2" sx={{ mt: 0.5 }}>
            {errors.logo}
          </Typography>
        )}
      </Box>

      {usesAgencyLevel(productId) ? (
        <TextField
          select
          label="Agency level"
          value={draft.agencyLevel}
          onChange={(e) => set({ agencyLevel: e.target.value as DetailsDraft['agencyLevel'] })}
          slotProps={{ select: { native: true } }}
          sx={{ maxWidth: 320 }}
        >
          {AGENCY_LEVELS.map((level) => (
            <option key={level} value={level}>
              {level}
            </option>
          ))}
        </TextField>
      ) : (
        <TextField
          select
          label="Trademark status"
          value={draft.trademarkStatus}
          onChange={(e) => set({ trademarkStatus: e.target.value as DetailsDraft['trademarkStatus'] })}
          slotProps={{ select: { native: true } }}
          sx={{ maxWidth: 320 }}
        >
          {TRADEMARK_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </TextField>
      )}

      <Box>
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', md: 'repeat(3, 1fr)' } }}>
          {CONTACT_ROLES.map(({ kind, label }) => (
            <TextField
              key={kind}
              select
              size="small"
              label={label}
              value={draft.contacts[kind]}
              onChange={(e) => set({ contacts: { ...draft.contacts, [kind]: e.target.value } })}
              error={Boolean(errors.contacts?.[kind])}
              helperText={errors.contacts?.[kind]}
              slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
            >
              <option value="">Choose a contact</option>
              {[...contacts]
                .sort((a, b) => Number(b.kind === kind) - Number(a.kind === kind))
                .map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} ({c.email})
                  </option>
                ))}
            </TextField>
          ))}
        </Box>
        {addingContact ? (
          <NewContactForm
            name={name}
            onCreate={onCreateContact}
            onCancel={() => setAddingContact(false)}
            onCreated={(contact, roles) => {
              set({ contacts: { ...draft.contacts, ...Object.fromEntries(roles.map((role) => [role, contact.id])) } });
              setAddingContact(false);
            }}
          />
        ) : (
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 1, flexWrap: 'wrap' }}>
            <Button variant="outlined" size="small" onClick={() => setAddingContact(true)}>
              New contact
            </Button>
            <Typography variant="body2" color="text.secondary">
              One person can be all three. New contacts are kept in your account's settings.
            </Typography>
          </Box>
        )}
      </Box>
    </Stack>
  );
}
