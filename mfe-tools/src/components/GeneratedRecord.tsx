import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { CopyButton } from './CopyButton';
import { MONOSPACE } from './RecordsTable';

/**
 * A generator's output, rebuilt on every keystroke: the problems with the input, or the
 * record to publish, with where to publish it, each copyable with one click.
 */
export function GeneratedRecord({
  name,
  type = 'TXT',
  record,
  errors,
  what,
  strings,
}: {
  name: string;
  type?: string;
  record: string;
  errors: readonly string[];
  what: string;
  /** The value cut into 255-byte strings, when it is longer than one: some DNS panels want them quoted. */
  strings?: readonly string[] | undefined;
}) {
  return (
    <Box
      component="section"
      aria-label={`Your ${what}`}
      data-testid="generated-record"
      data-valid={errors.length === 0}
      sx={{ mt: 4, border: 1, borderColor: errors.length ? 'error.main' : 'success.main', borderRadius: 2, overflow: 'hidden', bgcolor: 'background.paper' }}
    >
      <Box sx={{ px: 2, py: 1.5, bgcolor: 'grey.50', display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h3" component="h2" sx={{ flex: '1 1 200px' }}>
          Your {what}
        </Typography>
        {errors.length === 0 && <CopyButton text={record} label="Copy record" what={what} variant="contained" />}
      </Box>
      {errors.length > 0 ? (
        <Alert severity="error" role="alert" sx={{ borderRadius: 0 }}>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {errors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </Box>
        </Alert>
      ) : (
        <Box sx={{ p: 2, display: 'grid', gap: 1.5 }}>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '110px 1fr auto' }, gap: 1, alignItems: 'center' }}>
            <Typography sx={{ fontWeight: 600 }}>Host / name</Typography>
            <Box component="code" data-testid="generated-name" sx={{ fontFamily: MONOSPACE, fontSize: 14, overflowWrap: 'anywhere' }}>
              {name}
            </Box>
            <CopyButton text={name} label="Copy name" what="record name" />
            <Typography sx={{ fontWeight: 600 }}>Type</Typography>
            <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: 14, gridColumn: { sm: 'span 2' } }}>
              {type}
            </Box>
          </Box>
          <Typography sx={{ fontWeight: 600 }}>Value</Typography>
          <Box
            component="pre"
            data-testid="generated-value"
            sx={{ m: 0, p: 1.5, bgcolor: 'grey.100', borderRadius: 1, fontFamily: MONOSPACE, fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          >
            {record}
          </Box>
          {strings && strings.length > 1 && (
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
              <Typography color="text.secondary" sx={{ fontSize: 14, flex: '1 1 240px' }}>
                Longer than 255 characters: if your DNS provider asks for quoted strings, copy it as {strings.length} strings instead.
              </Typography>
              <CopyButton text={strings.map((part) => `"${part}"`).join(' ')} label="Copy as quoted strings" what={`${what} as quoted strings`} />
            </Box>
          )}
        </Box>
      )}
    </Box>
  );
}
