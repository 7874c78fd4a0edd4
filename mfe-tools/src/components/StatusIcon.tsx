import SvgIcon, { type SvgIconProps } from '@mui/material/SvgIcon';
import type { CheckStatus } from '@bimi/contracts/tools';
import { STATUS_COLOR } from './status';

// Four glyphs drawn inline: the icon package would be a large shared dependency for them.
const PATHS: Record<CheckStatus, string> = {
  pass: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.6 14.2-4.1-4.1 1.4-1.4 2.7 2.7 5.9-5.9 1.4 1.4-7.3 7.3Z',
  warn: 'M1 21h22L12 2 1 21Zm12-3h-2v-2h2v2Zm0-4h-2v-4h2v4Z',
  fail: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm5 13.6L15.6 17 12 13.4 8.4 17 7 15.6l3.6-3.6L7 8.4 8.4 7l3.6 3.6L15.6 7 17 8.4 13.4 12l3.6 3.6Z',
  info: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm1 15h-2v-6h2v6Zm0-8h-2V7h2v2Z',
};

export function StatusIcon({ status, ...props }: { status: CheckStatus } & Omit<SvgIconProps, 'color'>) {
  return (
    <SvgIcon color={STATUS_COLOR[status]} aria-hidden {...props}>
      <path d={PATHS[status]} />
    </SvgIcon>
  );
}
