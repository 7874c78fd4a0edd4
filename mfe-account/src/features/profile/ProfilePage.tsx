import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { ACCOUNT_PATHS, EmailChangeRequest, PasswordChangeRequest, Profile, ProfileUpdate } from '@bimi/contracts/account';
import { AcceptedAnswer } from '@bimi/contracts/auth';
import { getSession } from '@bimi/session/client';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AccountPageTitle, SettingsCard } from '../../components/SettingsCard';
import { PasswordRules } from '../../components/PasswordRules';
import { callApi } from '@bimi/session/api';
import { useApi } from '../../lib/useApi';
import { useNoticeForm } from '../../lib/useNoticeForm';

/** Changing the sign-in email or the password asks for the current password first. */
function CurrentPasswordField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error: string | undefined }) {
  return (
    <TextField
      label="Current password"
      type="password"
      autoComplete="current-password"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      error={Boolean(error)}
      helperText={error}
      fullWidth
    />
  );
}

function NameForm({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [name, setName] = useState(profile.name);
  const { errors, notice, busy, submit } = useNoticeForm(ProfileUpdate, async (data) => {
    onSaved(await callApi(ACCOUNT_PATHS.profile, { method: 'PATCH', body: data, answer: Profile }));
    // The header, the sidebar and the dashboard greeting read the name from the session.
    await getSession();
    return { severity: 'success', text: 'Your name was saved.' };
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit({ name });
  };
  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Your name">
      {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
      <TextField label="Name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} error={Boolean(errors.name)} helperText={errors.name} fullWidth />
      <Button type="submit" variant="contained" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
        Save name
      </Button>
    </Stack>
  );
}

function EmailForm({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [values, setValues] = useState({ newEmail: '', currentPassword: '' });
  const { errors, notice, busy, submit } = useNoticeForm(EmailChangeRequest, async (data) => {
    const saved = await callApi(ACCOUNT_PATHS.profileEmail, { method: 'POST', body: data, answer: Profile });
    onSaved(saved);
    setValues({ newEmail: '', currentPassword: '' });
    return { severity: 'info', text: `We sent a link to ${saved.pendingEmail ?? data.newEmail}. Your email changes once you open it.` };
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(values);
  };
  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Change email">
      <Alert severity="info" icon={false}>
        Signed in as <strong>{profile.email}</strong>
        {profile.pendingEmail && (
          <>
            {' '}
            · waiting for <strong>{profile.pendingEmail}</strong> to be verified
          </>
        )}
      </Alert>
      {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
      <TextField
        label="New email"
        type="email"
        autoComplete="email"
        value={values.newEmail}
        onChange={(e) => setValues({ ...values, newEmail: e.target.value })}
        error={Boolean(errors.newEmail)}
        helperText={errors.newEmail}
        fullWidth
      />
      <CurrentPasswordField value={values.currentPassword} onChange={(currentPassword) => setValues({ ...values, currentPassword })} error={errors.currentPassword} />
      <Button type="submit" variant="outlined" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
        Change email
      </Button>
    </Stack>
  );
}

function PasswordForm({ email }: { email: string }) {
  const [values, setValues] = useState({ currentPassword: '', newPassword: '' });
  const { errors, notice, busy, submit } = useNoticeForm(PasswordChangeRequest, async (data) => {
    const answer = await callApi(ACCOUNT_PATHS.profilePassword, { method: 'POST', body: data, answer: AcceptedAnswer });
    setValues({ currentPassword: '', newPassword: '' });
    return { severity: 'success', text: answer.message };
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit(values);
  };
  return (
    <Stack component="form" noValidate onSubmit={onSubmit} spacing={2} aria-label="Change password">
      {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
      <CurrentPasswordField value={values.currentPassword} onChange={(currentPassword) => setValues({ ...values, currentPassword })} error={errors.currentPassword} />
      <div>
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          value={values.newPassword}
          onChange={(e) => setValues({ ...values, newPassword: e.target.value })}
          error={Boolean(errors.newPassword)}
          helperText={errors.newPassword}
          fullWidth
        />
        <PasswordRules password={values.newPassword} email={email} />
      </div>
      <Button type="submit" variant="outlined" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
        Change password
      </Button>
    </Stack>
  );
}

export function ProfilePage({ route }: PageProps) {
  const { data: profile, error, set } = useApi(ACCOUNT_PATHS.profile, Profile);
  return (
    <>
      <AccountPageTitle title={route.title} lead="Your name, sign-in email and password." />
      {error && <Alert severity="error">{error}</Alert>}
      {!profile && !error && <CircularProgress aria-label="Loading your profile" />}
      {profile && (
        <>
          <SettingsCard title="Name" testId="profile-name">
            <NameForm profile={profile} onSaved={set} />
          </SettingsCard>
          <SettingsCard title="Email" lead="We send a link to the new address; your sign-in email changes when you open it." testId="profile-email">
            <EmailForm profile={profile} onSaved={set} />
          </SettingsCard>
          <SettingsCard title="Password" testId="profile-password">
            <PasswordForm email={profile.email} />
          </SettingsCard>
        </>
      )}
    </>
  );
}
