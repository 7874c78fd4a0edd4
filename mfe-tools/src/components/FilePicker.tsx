import { useRef } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';

/**
 * A button that opens the file chooser, with the chosen file's name beside it. The native input
 * stays hidden (it cannot be styled); choosing the same file again, after fixing it, still counts.
 */
export function FilePicker({
  buttonLabel,
  inputLabel,
  accept,
  fileName,
  onFile,
  busy = false,
  variant = 'outlined',
}: {
  buttonLabel: string;
  /** The hidden input's accessible name, e.g. "Logo file (SVG)". */
  inputLabel: string;
  accept: string;
  fileName: string | undefined;
  onFile: (file: File) => void;
  /** While the chosen file is being checked: the button says so and cannot be pressed. */
  busy?: boolean;
  variant?: 'outlined' | 'contained';
}) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'center', flexWrap: 'wrap' }}>
      <Button
        variant={variant}
        size={variant === 'contained' ? 'large' : 'medium'}
        disabled={busy}
        onClick={() => input.current?.click()}
        startIcon={busy ? <CircularProgress size={18} color="inherit" /> : undefined}
      >
        {busy ? 'Checking…' : buttonLabel}
      </Button>
      <Typography color="text.secondary">{fileName ?? 'No file chosen'}</Typography>
      <input
        ref={input}
        type="file"
        accept={accept}
        aria-label={inputLabel}
        hidden
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
    </Box>
  );
}
