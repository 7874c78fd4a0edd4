import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Typography from '@mui/material/Typography';
import type { PageProps, RouteEntry } from '@bimi/ui/RouteTable';
import { PageIntro } from '@bimi/ui/PageIntro';

const GENERATOR_SUFFIX = '-generator';

function ToolGroup({ heading, lead, tools }: { heading: string; lead: string; tools: readonly { path: string; title: string; description?: string }[] }) {
  return (
    <Box component="section" aria-label={heading} sx={{ mt: 5 }}>
      <Typography variant="h2" gutterBottom>
        {heading}
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {lead}
      </Typography>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, 1fr)', md: 'repeat(3, 1fr)' } }}>
        {tools.map((tool) => (
          <Box component="li" key={tool.path}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardActionArea component={RouterLink} to={tool.path} sx={{ height: '100%', p: 2.5, display: 'block' }}>
                <Typography variant="h3" component="h3" gutterBottom>
                  {tool.title}
                </Typography>
                <Typography color="text.secondary">{tool.description}</Typography>
              </CardActionArea>
            </Card>
          </Box>
        ))}
      </Box>
    </Box>
  );
}

/**
 * /account/tools: every tool in two groups, checkers (read DNS) and generators (write records).
 * `tools` are the routes under /account/tools, from the route table the app layer owns.
 */
export default function ToolsIndexPage({ route, tools }: PageProps & { tools: readonly RouteEntry[] }) {
  return (
    <PageIntro
      title={route.title}
      lead="Free checkers and record generators for BIMI, VMC, DMARC, SPF and DKIM. Check what your domain publishes today, then build the records it is missing."
    >
      <ToolGroup
        heading="Checkers"
        lead="Look up what a domain publishes and get every problem explained, with how to fix it."
        tools={tools.filter((tool) => !tool.path.endsWith(GENERATOR_SUFFIX))}
      />
      <ToolGroup heading="Generators" lead="Build correct records as you type and copy them into your DNS provider." tools={tools.filter((tool) => tool.path.endsWith(GENERATOR_SUFFIX))} />
    </PageIntro>
  );
}
