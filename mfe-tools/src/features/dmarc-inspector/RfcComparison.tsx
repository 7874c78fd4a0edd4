import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { DmarcDifferences } from '@bimi/contracts/tools';

/**
 * Where the original DMARC (RFC 7489) and RFC 9989 give different answers for the domain:
 * the organizational domain, the record that applies, the policy (pct, t=y, np, a missing p=).
 */
export function RfcComparison({ differences }: { differences: DmarcDifferences }) {
  if (differences.length === 0) {
    return (
      <Typography data-testid="dmarc-rfc-comparison" data-agree="true">
        Receivers that follow RFC 7489 and those that follow RFC 9989 find the same record and apply the same policy.
      </Typography>
    );
  }
  return (
    <Box data-testid="dmarc-rfc-comparison" data-agree="false">
      <Typography sx={{ mb: 1 }}>Receivers are moving from RFC 7489 to RFC 9989; for this domain they answer differently:</Typography>
      <Box
        component="table"
        sx={{
          width: '100%',
          borderCollapse: 'collapse',
          tableLayout: 'fixed',
          '& th, & td': { textAlign: 'left', verticalAlign: 'top', p: 1, borderBottom: 1, borderColor: 'divider', overflowWrap: 'anywhere' },
          '& th': { fontWeight: 600 },
        }}
      >
        <thead>
          <tr>
            <th scope="col">Question</th>
            <th scope="col">RFC 7489</th>
            <th scope="col">RFC 9989</th>
          </tr>
        </thead>
        <tbody>
          {differences.map((difference) => (
            <tr key={difference.aspect} data-aspect={difference.aspect}>
              <th scope="row">{difference.aspect}</th>
              <td>{difference.rfc7489}</td>
              <td>{difference.rfc9989}</td>
            </tr>
          ))}
        </tbody>
      </Box>
    </Box>
  );
}
