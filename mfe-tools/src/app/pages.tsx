import type { ComponentType } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { PageProps } from '@bimi/ui/RouteTable';
import { PageIntro } from '@bimi/ui/PageIntro';
import table from './routes.json';

function ToolsIndexPage({ route }: PageProps) {
  const tools = table.routes.filter((r) => r.path.startsWith('/account/tools/'));
  return (
    <PageIntro title={route.title} lead="Free lookups and record generators for BIMI, VMC, DMARC, SPF and DKIM.">
      <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap', mt: 3 }}>
        {tools.map((tool) => (
          <Button key={tool.path} component={RouterLink} to={tool.path} variant="outlined">
            {tool.title}
          </Button>
        ))}
      </Box>
    </PageIntro>
  );
}

export const pages: Record<string, ComponentType<PageProps>> = {
  '/account/tools': ToolsIndexPage,
};

export function GenericPage({ route }: PageProps) {
  return <PageIntro title={route.title} lead={route.description} />;
}
