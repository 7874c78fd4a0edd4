import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import { ACCOUNT_PATHS, NOTIFICATION_TOPICS, NotificationPreferences, type NotificationTopic } from '@bimi/contracts/account';
import type { PageProps } from '@bimi/ui/RouteTable';
import { AccountPageTitle, SettingsCard } from '../../components/SettingsCard';
import { callApi, failureMessage } from '@bimi/session/api';
import { useApi } from '../../lib/useApi';

function PreferencesForm({ saved, onSaved }: { saved: NotificationPreferences; onSaved: (p: NotificationPreferences) => void }) {
  const [values, setValues] = useState(saved);
  const [notice, setNotice] = useState<{ severity: 'success' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const answer = await callApi(ACCOUNT_PATHS.notifications, { method: 'PUT', body: NotificationPreferences.parse(values), answer: NotificationPreferences });
      onSaved(answer);
      setValues(answer);
      setNotice({ severity: 'success', text: 'Your email preferences were saved.' });
    } catch (error) {
      setNotice({ severity: 'error', text: failureMessage(error) });
    }
    setBusy(false);
  };
  return (
    <Stack spacing={1}>
      {notice && <Alert severity={notice.severity}>{notice.text}</Alert>}
      {(Object.keys(NOTIFICATION_TOPICS) as NotificationTopic[]).map((topic) => (
        <FormControlLabel
          key={topic}
          control={<Checkbox checked={values[topic]} onChange={(e) => setValues({ ...values, [topic]: e.target.checked })} />}
          label={NOTIFICATION_TOPICS[topic]}
        />
      ))}
      <Button variant="contained" onClick={save} disabled={busy} sx={{ alignSelf: 'flex-start', mt: 1 }}>
        Save preferences
      </Button>
    </Stack>
  );
}

export function NotificationsPage({ route }: PageProps) {
  const { data, error, set } = useApi(ACCOUNT_PATHS.notifications, NotificationPreferences);
  return (
    <>
      <AccountPageTitle title={route.title} lead="Choose which emails we send you. Security emails (sign-in links, password resets) always arrive." />
      {error && <Alert severity="error">{error}</Alert>}
      {!data && !error && <CircularProgress aria-label="Loading your preferences" />}
      {data && (
        <SettingsCard title="Emails">
          <PreferencesForm saved={data} onSaved={set} />
        </SettingsCard>
      )}
    </>
  );
}
