import { useState } from 'react';
import Box from '@mui/material/Box';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { usePhoneHint } from '@bimi/session/page-state';
import { MAILBOX_PROVIDERS, MAILBOX_PROVIDER_LABELS, type LogoReport, type MailboxProvider, type ProviderDisplay } from '@bimi/contracts/monitors';

type Appearance = 'light' | 'dark';
type Device = 'desktop' | 'phone';

/** Each mailbox's own colours, near enough that a person recognises it at a glance. */
const LOOK: Record<MailboxProvider, Record<Appearance, { bg: string; bar: string; text: string; muted: string; accent: string; row: string; initialBg: string }>> = {
  gmail: {
    light: { bg: '#ffffff', bar: '#f6f8fc', text: '#202124', muted: '#5f6368', accent: '#c5221f', row: '#f2f6fc', initialBg: '#1a73e8' },
    dark: { bg: '#1f1f1f', bar: '#2d2f31', text: '#e3e3e3', muted: '#9aa0a6', accent: '#f28b82', row: '#2a2a2a', initialBg: '#8ab4f8' },
  },
  apple: {
    light: { bg: '#ffffff', bar: '#f2f2f7', text: '#000000', muted: '#6e6e73', accent: '#007aff', row: '#ffffff', initialBg: '#8e8e93' },
    dark: { bg: '#1c1c1e', bar: '#2c2c2e', text: '#ffffff', muted: '#98989d', accent: '#0a84ff', row: '#1c1c1e', initialBg: '#636366' },
  },
  yahoo: {
    light: { bg: '#ffffff', bar: '#f5f3fa', text: '#1d2228', muted: '#5b636a', accent: '#6001d2', row: '#f9f7fd', initialBg: '#7d2eff' },
    dark: { bg: '#1d1e20', bar: '#26282b', text: '#f0f0f3', muted: '#a2a6ab', accent: '#b388ff', row: '#232427', initialBg: '#5b2bb5' },
  },
};

const BOX_NAME: Record<MailboxProvider, string> = { gmail: 'Primary', apple: 'Inbox', yahoo: 'Inbox' };

function senderName(domain: string): string {
  const first = domain.split('.')[0] ?? domain;
  return first.charAt(0).toUpperCase() + first.slice(1);
}

function Avatar({
  logo,
  shows,
  size,
  look,
  provider,
  domain,
}: {
  logo: LogoReport;
  shows: boolean;
  size: number;
  look: (typeof LOOK)['gmail']['light'];
  provider: MailboxProvider;
  domain: string;
}) {
  // Apple Mail shows BIMI logos in a circle as Gmail and Yahoo do; the square crop differs slightly.
  const radius = provider === 'yahoo' ? '30%' : '50%';
  if (shows && logo.dataUrl) {
    return (
      <Box
        component="img"
        src={logo.dataUrl}
        alt={`${domain} logo`}
        data-testid="inbox-logo"
        sx={{ width: size, height: size, borderRadius: radius, objectFit: 'cover', flexShrink: 0, bgcolor: '#fff' }}
      />
    );
  }
  return (
    <Box
      aria-label={`Initial ${logo.initial}`}
      role="img"
      data-testid="inbox-initial"
      sx={{
        width: size,
        height: size,
        borderRadius: radius,
        bgcolor: look.initialBg,
        color: '#fff',
        display: 'grid',
        placeItems: 'center',
        fontWeight: 600,
        fontSize: size * 0.45,
        flexShrink: 0,
      }}
    >
      {logo.initial}
    </Box>
  );
}

function Mockup({
  provider,
  appearance,
  device,
  domain,
  logo,
  display,
}: {
  provider: MailboxProvider;
  appearance: Appearance;
  device: Device;
  domain: string;
  logo: LogoReport;
  display: ProviderDisplay | undefined;
}) {
  const look = LOOK[provider][appearance];
  const shows = Boolean(display?.showsLogo && logo.dataUrl);
  const name = senderName(domain);
  const rows = [
    { from: name, subject: `Your ${name} account update`, snippet: 'Here is what changed this week, and what comes next.', time: '9:41', unread: true, ours: true },
    { from: 'Team calendar', subject: 'Weekly planning', snippet: 'Agenda for Monday', time: 'Yesterday', unread: false, ours: false },
  ];
  const phone = device === 'phone';
  return (
    <Box
      data-testid={`inbox-${provider}`}
      data-appearance={appearance}
      data-device={device}
      data-shows-logo={shows}
      aria-label={`${MAILBOX_PROVIDER_LABELS[provider]}, ${appearance}, ${device}`}
      role="figure"
      sx={{
        bgcolor: look.bg,
        color: look.text,
        borderRadius: phone ? '22px' : 2,
        border: '1px solid',
        borderColor: appearance === 'dark' ? '#3c4043' : '#dadce0',
        overflow: 'hidden',
        width: phone ? 250 : '100%',
        mx: phone ? 'auto' : 0,
        boxShadow: phone ? '0 6px 20px rgba(11,31,68,.12)' : 'none',
        fontFamily: provider === 'apple' ? '-apple-system, "Helvetica Neue", Arial, sans-serif' : 'Roboto, Arial, sans-serif',
      }}
    >
      <Box sx={{ bgcolor: look.bar, px: 1.5, py: phone ? 1.25 : 0.75, display: 'flex', alignItems: 'center', gap: 1, fontSize: phone ? 15 : 12, fontWeight: 700 }}>
        <Box component="span" sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: look.accent }} />
        <span>{MAILBOX_PROVIDER_LABELS[provider]}</span>
        <Box component="span" sx={{ color: look.muted, fontWeight: 500, ml: 'auto' }}>
          {BOX_NAME[provider]}
        </Box>
      </Box>
      {rows.map((row) =>
        phone ? (
          <Box
            key={row.from}
            sx={{ display: 'flex', gap: 1.25, px: 1.5, py: 1.25, opacity: row.ours ? 1 : 0.55, borderTop: '1px solid', borderColor: appearance === 'dark' ? '#2f3133' : '#eceff1' }}
          >
            {row.ours ? (
              <Avatar logo={logo} shows={shows} size={38} look={look} provider={provider} domain={domain} />
            ) : (
              <Box sx={{ width: 38, height: 38, borderRadius: '50%', bgcolor: look.muted, flexShrink: 0, opacity: 0.5 }} />
            )}
            <Box sx={{ minWidth: 0, flex: 1, fontSize: 12.5, lineHeight: 1.35 }}>
              <Box sx={{ display: 'flex', gap: 1 }}>
                <Box component="span" sx={{ fontWeight: row.unread ? 700 : 500, flex: 1, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                  {row.from}
                </Box>
                <Box component="span" sx={{ color: row.unread ? look.accent : look.muted, fontSize: 11 }}>
                  {row.time}
                </Box>
              </Box>
              <Box sx={{ fontWeight: row.unread ? 600 : 400, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{row.subject}</Box>
              <Box sx={{ color: look.muted, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{row.snippet}</Box>
            </Box>
          </Box>
        ) : (
          <Box
            key={row.from}
            sx={{
              display: 'flex',
              alignItems: 'center',
              gap: 1.25,
              px: 1.5,
              py: 1.25,
              fontSize: 13,
              bgcolor: row.ours ? look.row : 'transparent',
              opacity: row.ours ? 1 : 0.55,
              borderTop: '1px solid',
              borderColor: appearance === 'dark' ? '#2f3133' : '#eceff1',
            }}
          >
            {row.ours ? (
              <Avatar logo={logo} shows={shows} size={30} look={look} provider={provider} domain={domain} />
            ) : (
              <Box sx={{ width: 30, height: 30, borderRadius: '50%', bgcolor: look.muted, opacity: 0.5, flexShrink: 0 }} />
            )}
            <Box component="span" sx={{ width: 76, flexShrink: 0, fontWeight: row.unread ? 700 : 500, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              {row.from}
            </Box>
            <Box component="span" sx={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
              <Box component="span" sx={{ fontWeight: row.unread ? 700 : 400 }}>
                {row.subject}
              </Box>
              <Box component="span" sx={{ color: look.muted }}>
                {' – '}
                {row.snippet}
              </Box>
            </Box>
            <Box component="span" sx={{ color: look.muted, fontSize: 11, flexShrink: 0 }}>
              {row.time}
            </Box>
          </Box>
        ),
      )}
    </Box>
  );
}

function Verdict({ display, logo }: { display: ProviderDisplay | undefined; logo: LogoReport }) {
  const label = display?.label ?? '';
  if (display?.showsLogo && logo.dataUrl) {
    return (
      <Typography sx={{ fontSize: 14, color: 'success.dark', fontWeight: 600 }} data-testid="inbox-verdict">
        {label} shows your logo.
      </Typography>
    );
  }
  const reasons = display?.reasons.length ? display.reasons : logo.reason ? [logo.reason] : [];
  return (
    <Box data-testid="inbox-verdict">
      <Typography sx={{ fontSize: 14, fontWeight: 600 }}>
        {label} shows the initial “{logo.initial}” instead of your logo
      </Typography>
      {reasons.length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 0.5, pl: 2.25, color: 'text.secondary', fontSize: 13.5 }}>
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </Box>
      )}
    </Box>
  );
}

/**
 * How the sender appears in Gmail, Apple Mail and Yahoo, light or dark, on a computer or a phone.
 * The logo is only ever an <img> of the data URL the bff made from a checked SVG Tiny PS file.
 */
export function InboxPreviews({ domain, logo, providers }: { domain: string; logo: LogoReport; providers: ProviderDisplay[] }) {
  const narrow = useMediaQuery('(max-width:768px)', { defaultMatches: usePhoneHint() });
  const [appearance, setAppearance] = useState<Appearance>('light');
  // The screen's kind until the visitor picks one.
  const [chosenDevice, setDevice] = useState<Device | null>(null);
  const device = chosenDevice ?? (narrow ? 'phone' : 'desktop');
  const [selected, setSelected] = useState<MailboxProvider>('gmail');
  const shown = narrow ? [selected] : MAILBOX_PROVIDERS;
  const byProvider = (provider: MailboxProvider) => providers.find((p) => p.provider === provider);
  return (
    <Box component="section" aria-labelledby="inboxes-heading" data-testid="inbox-previews">
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 2 }}>
        <Typography id="inboxes-heading" variant="h2" sx={{ fontSize: 20, fontWeight: 700, flex: '1 1 auto' }}>
          How your mail appears
        </Typography>
        <ToggleButtonGroup size="small" exclusive value={appearance} onChange={(_e, v: Appearance | null) => v && setAppearance(v)} aria-label="Appearance">
          <ToggleButton value="light">Light</ToggleButton>
          <ToggleButton value="dark">Dark</ToggleButton>
        </ToggleButtonGroup>
        <ToggleButtonGroup size="small" exclusive value={device} onChange={(_e, v: Device | null) => v && setDevice(v)} aria-label="Device">
          <ToggleButton value="desktop">Desktop</ToggleButton>
          <ToggleButton value="phone">Phone</ToggleButton>
        </ToggleButtonGroup>
      </Box>
      {narrow && (
        <ToggleButtonGroup
          fullWidth
          size="small"
          exclusive
          color="primary"
          value={selected}
          onChange={(_e, v: MailboxProvider | null) => v && setSelected(v)}
          aria-label="Mailbox"
          sx={{ mb: 2 }}
        >
          {MAILBOX_PROVIDERS.map((provider) => (
            <ToggleButton key={provider} value={provider}>
              {MAILBOX_PROVIDER_LABELS[provider]}
            </ToggleButton>
          ))}
        </ToggleButtonGroup>
      )}
      <Box sx={{ display: 'grid', gap: 2.5, gridTemplateColumns: narrow ? '1fr' : 'repeat(3, minmax(0, 1fr))' }}>
        {shown.map((provider) => (
          <Box key={provider} sx={{ display: 'grid', gap: 1.25, alignContent: 'start' }}>
            <Mockup provider={provider} appearance={appearance} device={device} domain={domain} logo={logo} display={byProvider(provider)} />
            <Verdict display={byProvider(provider)} logo={logo} />
          </Box>
        ))}
      </Box>
    </Box>
  );
}
