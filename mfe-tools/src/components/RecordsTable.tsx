import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { DnsRecord } from '@bimi/contracts/tools';
import { CopyButton } from './CopyButton';

export const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

/**
 * The records as published, each value in monospace with its own copy button. A list of
 * cards rather than a table: a 2048-bit DKIM key has to wrap at 375px.
 */
export function RecordsTable({ records, emptyText = 'No records were found.' }: { records: readonly DnsRecord[]; emptyText?: string }) {
  if (records.length === 0) return <Typography color="text.secondary">{emptyText}</Typography>;
  return (
    <Box component="ul" aria-label="Records" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1.5 }}>
      {records.map((record, index) => (
        <Box
          component="li"
          key={`${record.name}-${record.type}-${index}`}
          data-record-type={record.type}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 2, overflow: 'hidden', bgcolor: 'background.paper' }}
        >
          <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap', px: 2, py: 1, bgcolor: 'grey.50' }}>
            <Box component="span" sx={{ fontFamily: MONOSPACE, fontSize: 13, fontWeight: 700, px: 0.75, borderRadius: 1, bgcolor: 'primary.main', color: 'primary.contrastText' }}>
              {record.type}
            </Box>
            <Typography component="span" sx={{ fontFamily: MONOSPACE, fontSize: 14, overflowWrap: 'anywhere', flex: '1 1 160px' }}>
              {record.name}
            </Typography>
            {record.ttl !== undefined && (
              <Typography component="span" color="text.secondary" sx={{ fontSize: 13 }}>
                TTL {record.ttl}s
              </Typography>
            )}
            <CopyButton text={record.value} what={`${record.type} record value`} />
          </Box>
          <Box component="pre" sx={{ m: 0, px: 2, py: 1.5, fontFamily: MONOSPACE, fontSize: 13, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
            {record.value}
          </Box>
        </Box>
      ))}
    </Box>
  );
}
