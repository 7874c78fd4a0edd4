import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Check } from '@bimi/contracts/tools';
import { StatusIcon } from './StatusIcon';
import { sortChecks, STATUS_LABEL } from './status';
import { VISUALLY_HIDDEN } from '@bimi/ui/theme';

/** Every finding with its explanation and, when something is to be done, how to fix it. */
export function CheckList({ checks }: { checks: readonly Check[] }) {
  return (
    <Box component="ul" aria-label="Checks" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      {sortChecks(checks).map((check, index) => (
        <Box
          component="li"
          key={`${check.id}-${index}`}
          data-check-id={check.id}
          data-status={check.status}
          // A pass needs no fix: its row is denser so problems stand out in a long list.
          sx={{ display: 'flex', gap: 1.5, px: 2, py: check.status === 'pass' ? 1 : 2, border: 1, borderColor: 'divider', borderRadius: 2, minWidth: 0, bgcolor: 'background.paper' }}
        >
          <StatusIcon status={check.status} sx={{ mt: '2px' }} />
          <Box sx={{ minWidth: 0 }}>
            <Typography sx={{ fontWeight: 600 }}>
              <Box component="span" sx={VISUALLY_HIDDEN}>
                {STATUS_LABEL[check.status]}:{' '}
              </Box>
              {check.title}
            </Typography>
            <Typography color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {check.detail}
            </Typography>
            {check.fix && check.status !== 'pass' && (
              <Typography sx={{ mt: 1, overflowWrap: 'anywhere' }}>
                <strong>How to fix: </strong>
                {check.fix}
              </Typography>
            )}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
