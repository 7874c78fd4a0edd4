import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { SpfFlattening } from '@bimi/contracts/tools';
import { SPF_LOOKUP_LIMIT } from '@bimi/email-auth/spf-limits';
import { CopyButton } from '../../components/CopyButton';
import { MONOSPACE } from '../../components/RecordsTable';

/**
 * For a record over the lookup limit: what each include costs (most first), which of them only
 * list addresses, and the record with those replaced by their addresses, with what that gives up.
 */
export function SpfFlatteningAdvice({ flattening }: { flattening: SpfFlattening }) {
  const widest = Math.max(...flattening.includes.map((include) => include.lookups), 1);
  return (
    <Box data-testid="spf-flattening">
      <Typography sx={{ mb: 1 }}>
        The record takes {flattening.lookups} DNS lookups; receivers stop at {SPF_LOOKUP_LIMIT}. What each include costs:
      </Typography>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1 }}>
        {flattening.includes.map((include) => (
          <Box component="li" key={include.term} data-include={include.term} sx={{ minWidth: 0 }}>
            <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
              <Box component="code" sx={{ fontFamily: MONOSPACE, fontSize: 14, overflowWrap: 'anywhere' }}>
                {include.term}
              </Box>
              <Typography component="span" sx={{ fontWeight: 600 }}>
                {include.lookups} lookup{include.lookups === 1 ? '' : 's'}
              </Typography>
              <Typography component="span" color={include.flattenable ? 'success.main' : 'text.secondary'} sx={{ fontSize: 14 }}>
                {include.flattenable
                  ? `can be flattened (${include.addresses.length} address range${include.addresses.length === 1 ? '' : 's'})`
                  : `kept: ${include.reason ?? 'cannot be flattened'}`}
              </Typography>
            </Box>
            <Box
              aria-hidden
              sx={{ mt: 0.5, height: 6, borderRadius: 3, bgcolor: include.flattenable ? 'success.light' : 'grey.300', width: `${Math.max(4, (include.lookups / widest) * 100)}%` }}
            />
          </Box>
        ))}
      </Box>
      {flattening.record ? (
        <Box sx={{ mt: 2, border: 1, borderColor: 'divider', borderRadius: 2, overflow: 'hidden', bgcolor: 'background.paper' }}>
          <Box sx={{ px: 2, py: 1, bgcolor: 'grey.50', display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
            <Typography component="p" sx={{ fontWeight: 600, flex: '1 1 200px' }} data-testid="spf-flattened-lookups">
              Flattened: {flattening.recordLookups} of {SPF_LOOKUP_LIMIT} lookups, {flattening.bytes} bytes
            </Typography>
            <CopyButton text={flattening.record} label="Copy record" what="flattened SPF record" />
          </Box>
          <Box component="code" data-testid="spf-flattened-record" sx={{ display: 'block', px: 2, py: 1.5, fontFamily: MONOSPACE, fontSize: 13, wordBreak: 'break-all' }}>
            {flattening.record}
          </Box>
        </Box>
      ) : (
        <Typography sx={{ mt: 2 }}>None of the includes lists only addresses, so none can be flattened safely: remove the services you no longer use.</Typography>
      )}
      {flattening.record && (
        <Alert severity="warning" sx={{ mt: 2 }} data-testid="spf-flattening-risks">
          <Typography sx={{ fontWeight: 600 }}>Before you flatten</Typography>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {flattening.risks.map((risk) => (
              <li key={risk}>{risk}</li>
            ))}
          </Box>
        </Alert>
      )}
    </Box>
  );
}
