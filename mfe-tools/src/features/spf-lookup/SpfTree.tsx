import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { MONOSPACE } from '../../components/RecordsTable';
import { SPF_LOOKUP_LIMIT, SPF_VOID_LOOKUP_LIMIT } from '@bimi/email-auth/spf-limits';
import type { SpfTreeNode, SpfTreeSummary } from './spf-tree';

function TreeNode({ node }: { node: SpfTreeNode }) {
  return (
    <Box component="li" data-spf-domain={node.domain} sx={{ listStyle: 'none', minWidth: 0 }}>
      <Box sx={{ border: 1, borderColor: node.problem ? 'error.main' : 'divider', borderRadius: 2, p: 1.5, minWidth: 0, bgcolor: 'background.paper' }}>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'baseline', flexWrap: 'wrap' }}>
          {node.via !== 'root' && (
            <Typography component="span" sx={{ fontSize: 12, fontWeight: 700, textTransform: 'uppercase', color: 'primary.main' }}>
              {node.via}
            </Typography>
          )}
          <Typography component="span" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {node.domain}
          </Typography>
          <Typography component="span" color="text.secondary" sx={{ fontSize: 14, ml: 'auto' }}>
            {node.lookups} lookup{node.lookups === 1 ? '' : 's'}
            {node.voidLookups ? `, ${node.voidLookups} void` : ''}
          </Typography>
        </Box>
        {node.record && (
          <Box component="code" sx={{ display: 'block', mt: 0.5, fontFamily: MONOSPACE, fontSize: 13, color: 'text.secondary', wordBreak: 'break-all' }}>
            {node.record}
          </Box>
        )}
        {node.problem && (
          <Typography color="error" sx={{ mt: 0.5, fontSize: 14 }}>
            {node.problem}
          </Typography>
        )}
      </Box>
      {node.children.length > 0 && (
        <Box component="ul" sx={{ m: 0, mt: 1, pl: { xs: 1.5, md: 3 }, borderLeft: 2, borderColor: 'divider', display: 'grid', gap: 1 }}>
          {node.children.map((child, index) => (
            <TreeNode key={`${child.domain}-${index}`} node={child} />
          ))}
        </Box>
      )}
    </Box>
  );
}

/**
 * The record and every include/redirect it pulls in, with the lookups each costs against
 * RFC 7208 §4.6.4's limits: 10 DNS-querying terms and 2 void lookups per evaluation.
 */
export function SpfTree({ root, totalLookups, voidLookups, truncated }: SpfTreeSummary & { root: SpfTreeNode }) {
  const over = totalLookups > SPF_LOOKUP_LIMIT;
  const voidOver = voidLookups > SPF_VOID_LOOKUP_LIMIT;
  return (
    <Box data-testid="spf-tree">
      <Typography data-testid="spf-lookup-count" sx={{ fontWeight: 600, color: over ? 'error.main' : 'text.primary' }}>
        {truncated ? 'At least ' : ''}
        {totalLookups} of {SPF_LOOKUP_LIMIT} DNS lookups used{over ? ': over the limit, so receivers treat SPF as broken (permerror)' : ''}
      </Typography>
      {voidLookups > 0 && (
        <Typography sx={{ fontWeight: 600, color: voidOver ? 'error.main' : 'text.primary' }}>
          {voidLookups} of {SPF_VOID_LOOKUP_LIMIT} void lookups (names that do not exist){voidOver ? ': over the limit (permerror)' : ''}
        </Typography>
      )}
      <Box sx={{ mb: 1.5 }} />
      <Box component="ul" sx={{ m: 0, p: 0, display: 'grid', gap: 1 }}>
        <TreeNode node={root} />
      </Box>
    </Box>
  );
}
