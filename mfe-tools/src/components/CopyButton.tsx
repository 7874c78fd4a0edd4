import { useEffect, useRef, useState } from 'react';
import Button, { type ButtonProps } from '@mui/material/Button';
import { VISUALLY_HIDDEN } from '@bimi/ui/theme';

type CopyState = 'ready' | 'copied' | 'failed';

/**
 * Copies a value with one click and says so on the button itself ("Copied"), where the
 * user is looking; a live region repeats it for screen readers.
 */
export function CopyButton({
  text,
  label = 'Copy',
  what,
  ...buttonProps
}: { text: string; label?: string; /** what is copied, for screen readers: "DMARC record" */ what?: string } & Omit<ButtonProps, 'onClick'>) {
  const [state, setState] = useState<CopyState>('ready');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function copy() {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      // No clipboard permission (an embedded frame, an old browser): the value stays selectable on the page.
      setState('failed');
    }
    timer.current = setTimeout(() => setState('ready'), 2500);
  }

  const shown = state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed: select the text' : label;
  return (
    <>
      <Button
        size="small"
        variant={state === 'copied' ? 'contained' : 'outlined'}
        color={state === 'failed' ? 'error' : state === 'copied' ? 'success' : 'primary'}
        aria-label={what ? `${label} ${what}` : undefined}
        data-copy-state={state}
        {...buttonProps}
        onClick={() => void copy()}
      >
        {shown}
      </Button>
      <span role="status" aria-live="polite" style={VISUALLY_HIDDEN}>
        {state === 'copied' ? `${what ?? 'Text'} copied to the clipboard` : ''}
      </span>
    </>
  );
}
