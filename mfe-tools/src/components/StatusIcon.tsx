import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import type { CheckStatus } from '@bimi/contracts/tools';
import { STATUS_COLOR } from './status';

// Four glyphs drawn inline: the icon package would be a large shared dependency for them.
const PATHS: Record<CheckStatus, string> = {
  pass: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.6 14.2-4.1-4.1 1.4-1.4 2.7 2.7 5.9-5.9 1.4 1.4-7.3 7.3Z',
  warn: 'M1 21h22L12 2 1 21Zm12-3h-2v-2h2v2Zm0-4h-2v-4h2v4Z',
  fail: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm5 13.6L15.6 17 12 13.4 8.4 17 7 15.6l3.6-3.6L7 8.4 8.4 7l3.6 3.6L15.6 7 17 8.4 13.4 12l3.6 3.6Z',
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-6h2v6Zm0-8h-2V7h2v2Z',
  // A circle with a gap: nothing there (absent); a circular arrow: try again (unreachable).
  absent: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm-5 7h10v2H7v-2Z',
  unreachable: 'M17.65 6.35A7.96 7.96 0 0 0 12 4a8 8 0 1 0 7.73 10h-2.08A6 6 0 1 1 12 6c1.66 0 3.14.69 4.22 1.78L13 11h7V4l-2.35 2.35Z',
};

export function StatusIcon({ status, ...props }: { status: CheckStatus } & Omit<SvgIconProps, 'color'>) {
  return (
    <SvgIcon color={STATUS_COLOR[status]} aria-hidden {...props}>
      <path d={PATHS[status]} />
    </SvgIcon>
  );
}
