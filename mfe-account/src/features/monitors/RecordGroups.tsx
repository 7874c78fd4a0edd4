import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ExpandMore from '@mui/icons-material/ExpandMore';
import type { RecordGroupReport } from '@bimi/contracts/monitors';
import { StatusChip } from './StatusChip';

/** The checks grouped by record, each with what to change; groups with a problem start open. */
export function RecordGroups({ groups }: { groups: RecordGroupReport[] }) {
  return (
    <Box component="section" aria-labelledby="checks-heading">
      <Typography id="checks-heading" variant="h2" sx={{ fontSize: 20, fontWeight: 700, mb: 1.5 }}>
        Checks by record
      </Typography>
      {groups.map((group) => (
        <Accordion
          key={group.group}
          defaultExpanded={group.status !== 'pass' && group.status !== 'info'}
          disableGutters
          variant="outlined"
          data-testid={`group-${group.group}`}
          sx={{ '&:not(:last-of-type)': { borderBottom: 0 } }}
        >
          <AccordionSummary expandIcon={<ExpandMore />} sx={{ '& .MuiAccordionSummary-content': { alignItems: 'center', gap: 1.5, minWidth: 0 } }}>
            <Typography component="h3" sx={{ fontWeight: 700, fontSize: 16, flex: 1 }}>
              {group.label}
            </Typography>
            <StatusChip status={group.status} />
          </AccordionSummary>
          <AccordionDetails sx={{ display: 'grid', gap: 1.5, pt: 0 }}>
            {group.records.map((record) => (
              <Box
                key={`${record.name} ${record.type} ${record.value}`}
                sx={{ fontFamily: 'ui-monospace, Menlo, Consolas, monospace', fontSize: 12.5, bgcolor: '#f6f8fc', borderRadius: 1.5, p: 1.25, overflowWrap: 'anywhere' }}
              >
                <Box component="span" sx={{ color: 'text.secondary' }}>
                  {record.name} {record.type}{' '}
                </Box>
                {record.value}
              </Box>
            ))}
            {group.checks.map((check) => (
              <Box key={check.id} data-check-id={check.id} data-status={check.status} sx={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: 1.25, alignItems: 'start' }}>
                <StatusChip status={check.status} compact />
                <Box sx={{ minWidth: 0 }}>
                  <Typography sx={{ fontWeight: 600, fontSize: 15 }}>{check.title}</Typography>
                  <Typography color="text.secondary" sx={{ fontSize: 14, overflowWrap: 'anywhere' }}>
                    {check.detail}
                  </Typography>
                  {check.fix && check.status !== 'pass' && (
                    <Typography sx={{ fontSize: 14, mt: 0.5, overflowWrap: 'anywhere' }}>
                      <strong>Fix: </strong>
                      {check.fix}
                    </Typography>
                  )}
                </Box>
              </Box>
            ))}
          </AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
}
