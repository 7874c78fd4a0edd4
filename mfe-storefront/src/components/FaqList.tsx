import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { FaqEntry } from '../content/faq';

/** Questions as headings (one level below the section's), each followed by its answer. */
export function FaqList({ entries, headingLevel = 'h3' }: { entries: readonly FaqEntry[]; headingLevel?: 'h3' | 'h4' }) {
  return (
    <Box sx={{ display: 'grid', gap: 3 }}>
      {entries.map((entry) => (
        <Box key={entry.id} id={entry.id} sx={{ scrollMarginTop: 96 }}>
          <Typography component={headingLevel} variant="h3" sx={{ fontSize: '1.1rem', mb: 0.75 }}>
            {entry.question}
          </Typography>
          <Typography color="text.secondary" sx={{ lineHeight: 1.7 }}>
            {entry.answer}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
