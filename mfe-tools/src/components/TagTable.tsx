import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { RecordTag } from '@bimi/contracts/tools';
import { MONOSPACE } from './RecordsTable';

/** A record taken apart: each tag, its value and what it means, in the order published. */
export function TagTable({ tags, meanings }: { tags: readonly RecordTag[]; meanings: Readonly<Record<string, string>> }) {
  return (
    <Box
      component="dl"
      data-testid="record-tags"
      sx={{
        m: 0,
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', sm: 'minmax(120px, 240px) minmax(0, 1fr)' },
        border: 1,
        borderColor: 'divider',
        borderRadius: 2,
        px: 2,
        py: 1,
        bgcolor: 'background.paper',
      }}
    >
      {tags.map((tag, index) => (
        <Box key={`${tag.name}-${index}`} sx={{ display: 'contents' }}>
          <Box component="dt" sx={{ fontFamily: MONOSPACE, fontSize: 14, py: 1, overflowWrap: 'anywhere' }}>
            <strong>{tag.name}</strong>={tag.value}
          </Box>
          <Typography component="dd" color="text.secondary" sx={{ m: 0, py: { xs: 0, sm: 1 }, pb: 1, borderBottom: { xs: 1, sm: 0 }, borderColor: 'divider' }}>
            {meanings[tag.name.toLowerCase()] ?? 'Not a tag this record type defines: receivers ignore it.'}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
