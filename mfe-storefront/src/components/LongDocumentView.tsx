import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { Block, Section } from '../lib/document';
import { SiteLink } from './SiteLink';

/** "2. Choosing the right certificate" → "choosing-the-right-certificate": stable anchors for the contents list. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/^\d+\.\s*/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function BlockView({ block }: { block: Block }) {
  switch (block.kind) {
    case 'p':
      return <Typography sx={{ mb: 2, lineHeight: 1.7 }}>{block.text}</Typography>;
    case 'list':
    case 'steps':
      return (
        <Box component={block.kind === 'list' ? 'ul' : 'ol'} sx={{ pl: 3, mt: 0, mb: 2.5, '& li': { mb: 1, lineHeight: 1.65 } }}>
          {block.items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </Box>
      );
    case 'code':
      return (
        // Focusable so keyboard users can scroll a long record sideways.
        <Box component="pre" tabIndex={0} sx={{ p: 2, mb: 2.5, borderRadius: 1, bgcolor: '#f1f4f9', fontSize: 14, overflowX: 'auto', whiteSpace: 'pre' }}>
          <code>{block.text}</code>
        </Box>
      );
    case 'links':
      return (
        <Box component="ul" sx={{ pl: 3, mt: 0, mb: 2.5, '& li': { mb: 1 } }}>
          {block.items.map((item) => (
            <li key={item.to}>
              <SiteLink to={item.to}>{item.label}</SiteLink>
            </li>
          ))}
        </Box>
      );
  }
}

/**
 * Sections of long copy: h2 for a section, h3 for its subsections (the page's h1 comes
 * before). `startLevel={3}` nests a document under a heading of the page.
 */
export function LongDocumentView({ sections, startLevel = 2 }: { sections: readonly Section[]; startLevel?: 2 | 3 }) {
  return (
    <>
      {sections.map((section) => (
        <Box component="section" key={section.heading} aria-labelledby={anchorOf(section.heading)} sx={{ mb: 4 }}>
          <Typography
            id={anchorOf(section.heading)}
            component={startLevel === 2 ? 'h2' : 'h3'}
            variant={startLevel === 2 ? 'h2' : 'h3'}
            sx={{ fontSize: startLevel === 2 ? { xs: '1.4rem', md: '1.6rem' } : '1.2rem', mb: 2, scrollMarginTop: 96 }}
          >
            {section.heading}
          </Typography>
          {section.blocks.map((block, index) => (
            <BlockView key={index} block={block} />
          ))}
          {section.subsections?.map((subsection) => (
            <Box key={subsection.heading} sx={{ mt: 3 }}>
              <Typography id={anchorOf(subsection.heading)} component={startLevel === 2 ? 'h3' : 'h4'} variant="h3" sx={{ fontSize: '1.15rem', mb: 1.5, scrollMarginTop: 96 }}>
                {subsection.heading}
              </Typography>
              {subsection.blocks.map((block, index) => (
                <BlockView key={index} block={block} />
              ))}
            </Box>
          ))}
        </Box>
      ))}
    </>
  );
}

/** A contents list linking to each section's anchor. */
export function ContentsList({ sections, label = 'On this page' }: { sections: readonly Section[]; label?: string }) {
  return (
    <Box component="nav" aria-label={label} sx={{ mb: 5, p: 2.5, borderRadius: 2, border: '1px solid', borderColor: 'divider' }}>
      <Typography component="p" sx={{ fontWeight: 700, mb: 1 }}>
        {label}
      </Typography>
      <Box component="ol" sx={{ m: 0, pl: 2.5, '& li': { mb: 0.5 } }}>
        {sections.map((section) => (
          <li key={section.heading}>
            <a href={`#${anchorOf(section.heading)}`}>{section.heading.replace(/^\d+\.\s*/, '')}</a>
          </li>
        ))}
      </Box>
    </Box>
  );
}
