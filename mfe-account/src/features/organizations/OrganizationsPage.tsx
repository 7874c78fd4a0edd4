import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  ACCOUNT_PATHS,
  Invite,
  InviteAccept,
  InviteCreate,
  Organization,
  OrganizationCreate,
  OrganizationList,
  OrganizationMembers,
  OrganizationRename,
  type OrganizationRole,
} from '@bimi/contracts/account';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AccountPageTitle, SettingsCard } from '../../components/SettingsCard';
import { callApi, failureMessage } from '@bimi/session/api';
import { checkForm } from '../../lib/api';
import { useApi } from '../../lib/useApi';
import { useNoticeForm, type FormNotice } from '../../lib/useNoticeForm';

const ROLE_LABELS: Record<OrganizationRole, string> = { owner: 'Owner', member: 'Member' };

/** One text field and a button, checked against a shared schema: create and rename. */
function NameForm({ label, action, initial = '', onSubmit }: { label: string; action: string; initial?: string; onSubmit: (name: string) => Promise<void> }) {
  const [name, setName] = useState(initial);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkForm(OrganizationCreate, { name });
    setError(checked.errors?.name);
    if (!checked.data) return;
    setBusy(true);
    try {
      await onSubmit(checked.data.name);
      if (!initial) setName('');
    } catch (err) {
      setError(failureMessage(err));
    }
    setBusy(false);
  };
  return (
    <Stack component="form" noValidate onSubmit={submit} direction={{ xs: 'column', sm: 'row' }} spacing={1.5} aria-label={action} sx={{ alignItems: { sm: 'flex-start' } }}>
      <TextField label={label} value={name} onChange={(e) => setName(e.target.value)} error={Boolean(error)} helperText={error} size="small" sx={{ flex: 1 }} />
      <Button type="submit" variant="contained" disabled={busy}>
        {action}
      </Button>
    </Stack>
  );
}

function InviteForm({ organization, onInvited }: { organization: Organization; onInvited: (invite: Invite) => void }) {
  const [values, setValues] = useState({ email: '', role: 'member' as OrganizationRole });
  const { errors, notice, busy, submit } = useNoticeForm(InviteCreate, async (data) => {
    const invite = await callApi(ACCOUNT_PATHS.organizationInvites(organization.id), { method: 'POST', body: data, answer: Invite });
    onInvited(invite);
    setValues({ email: '', role: 'member' });
    return { severity: 'success', text: `We sent an invitation to ${invite.email}.` };
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(values);
  };
  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={1.5} aria-label={`Invite to ${organization.name}`}>
      {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label="Email to invite"
          type="email"
          size="small"
          value={values.email}
          onChange={(e) => setValues({ ...values, email: e.target.value })}
          error={Boolean(errors.email)}
          helperText={errors.email}
          sx={{ flex: 1 }}
        />
        <TextField select label="Role" size="small" value={values.role} onChange={(e) => setValues({ ...values, role: e.target.value as OrganizationRole })} sx={{ minWidth: 130 }}>
          <MenuItem value="member">Member</MenuItem>
          <MenuItem value="owner">Owner</MenuItem>
        </TextField>
        <Button type="submit" variant="outlined" disabled={busy}>
          Invite
        </Button>
      </Stack>
    </Stack>
  );
}

function OrganizationCard({ organization, onChanged }: { organization: Organization; onChanged: (o: Organization) => void }) {
  const members = useApi(ACCOUNT_PATHS.organizationMembers(organization.id), OrganizationMembers);
  const [renaming, setRenaming] = useState(false);
  const owner = organization.role === 'owner';
  return (
    <SettingsCard
      title={organization.name}
      lead={`${organization.memberCount} ${organization.memberCount === 1 ? 'member' : 'members'} · you are ${ROLE_LABELS[organization.role].toLowerCase()}`}
      testId="organization"
    >
      {owner && (
        <Box sx={{ mb: 2 }}>
          {renaming ? (
            <NameForm
              label="New name"
              action="Save name"
              initial={organization.name}
              onSubmit={async (name) => {
                const body = OrganizationRename.parse({ name });
                onChanged(await callApi(ACCOUNT_PATHS.organization(organization.id), { method: 'PATCH', body, answer: Organization }));
                setRenaming(false);
              }}
            />
          ) : (
            <Button size="small" onClick={() => setRenaming(true)}>
              Rename
            </Button>
          )}
        </Box>
      )}
      <Typography variant="h3" sx={{ fontSize: 16, fontWeight: 700, mb: 1 }}>
        Members
      </Typography>
      {members.error && <Alert severity="error">{members.error}</Alert>}
      {members.loading && !members.data && <CircularProgress size={20} aria-label="Loading members" />}
      {members.data && (
        <Box component="ul" aria-label={`Members of ${organization.name}`} sx={{ listStyle: 'none', p: 0, m: 0, mb: 2, display: 'grid', gap: 1 }}>
          {members.data.members.map((member) => (
            <Box component="li" key={member.email} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography sx={{ fontWeight: 600 }}>{member.name}</Typography>
              <Typography color="text.secondary" sx={{ flex: 1, minWidth: 0, fontSize: 14, overflowWrap: 'anywhere' }}>
                {member.email}
              </Typography>
              <Chip size="small" label={ROLE_LABELS[member.role]} variant={member.role === 'owner' ? 'filled' : 'outlined'} />
            </Box>
          ))}
          {members.data.invites.map((invite) => (
            <Box component="li" key={invite.id} sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', color: 'text.secondary' }}>
              <Typography sx={{ flex: 1, minWidth: 0, fontSize: 14, overflowWrap: 'anywhere' }}>{invite.email}</Typography>
              <Chip size="small" label={`Invited · ${ROLE_LABELS[invite.role]}`} variant="outlined" />
            </Box>
          ))}
        </Box>
      )}
      {owner && <InviteForm organization={organization} onInvited={(invite) => members.data && members.set({ ...members.data, invites: [...members.data.invites, invite] })} />}
    </SettingsCard>
  );
}

/** Accepts the invitation in the link of an invitation mail (?invite=…) once, on arrival. */
function useInviteFromLink(onJoined: (organization: Organization) => void): FormNotice | null {
  const [params, setParams] = useSearchParams();
  const token = params.get('invite');
  const [notice, setNotice] = useState<FormNotice | null>(null);
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    const checked = checkForm(InviteAccept, { token });
    if (!checked.data) {
      setNotice({ severity: 'error', text: checked.errors.token ?? 'The invitation link is invalid.' });
      return;
    }
    callApi(ACCOUNT_PATHS.acceptInvite, { method: 'POST', body: checked.data, answer: Organization })
      .then((organization) => {
        onJoined(organization);
        setNotice({ severity: 'success', text: `You joined ${organization.name}.` });
        setParams({}, { replace: true });
      })
      .catch((error: unknown) => setNotice({ severity: 'error', text: failureMessage(error) }));
  }, [token, onJoined, setParams]);
  return notice;
}

export function OrganizationsPage({ route }: PageProps) {
  const { data, error, set, reload } = useApi(ACCOUNT_PATHS.organizations, OrganizationList);
  const inviteNotice = useInviteFromLink(() => void reload());
  const organizations = data?.organizations ?? [];
  const replace = (changed: Organization) => set({ organizations: organizations.map((o) => (o.id === changed.id ? changed : o)) });
  return (
    <>
      <AccountPageTitle title={route.title} lead="Share certificates, monitors and billing with your team. Owners rename and invite; members see what the organization holds." />
      {inviteNotice && (
        <Alert severity={inviteNotice.severity} sx={{ mb: 2 }}>
          {inviteNotice.text}
        </Alert>
      )}
      <SettingsCard title="Create an organization">
        <NameForm
          label="Organization name"
          action="Create"
          onSubmit={async (name) => {
            const created = await callApi(ACCOUNT_PATHS.organizations, { method: 'POST', body: { name }, answer: Organization });
            set({ organizations: [...organizations, created] });
          }}
        />
      </SettingsCard>
      {error && <Alert severity="error">{error}</Alert>}
      {!data && !error && <CircularProgress aria-label="Loading your organizations" />}
      {data && organizations.length === 0 && <Typography color="text.secondary">You are not part of an organization yet.</Typography>}
      {organizations.map((organization) => (
        <OrganizationCard key={organization.id} organization={organization} onChanged={replace} />
      ))}
    </>
  );
}
