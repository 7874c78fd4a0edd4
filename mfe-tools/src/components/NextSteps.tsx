import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router-dom';
import type { NextStep } from '../lib/next-steps';

/** Puts the cursor back in the tool form's field `name`, its text selected to be corrected. */
function focusField(name: string) {
  const field = document.querySelector<HTMLInputElement>(`form input[name="${CSS.escape(name)}"]`);
  field?.focus();
  field?.select();
}

/**
 * The one card every tool answer ends its headline with: what to do next, each step a link
 * (or, for a misspelt domain, a button back to the field) (a generator with the values prefilled, the certificates, Add Monitor, the validation guide).
 */
export function NextSteps({ steps }: { steps: readonly NextStep[] }) {
  if (steps.length === 0) return null;
  return (
    <Box
      component="nav"
      aria-label="Next steps"
      data-testid="next-steps"
      sx={{ mt: 2, p: { xs: 2, md: 2.5 }, border: 1, borderColor: 'divider', borderRadius: 2, bgcolor: 'background.paper' }}
    >
      <Typography variant="h3" component="h2" sx={{ fontSize: 18, mb: 1 }}>
        Next steps
      </Typography>
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none', display: 'grid', gap: 1.25, gridTemplateColumns: { xs: '1fr', md: 'repeat(2, minmax(0, 1fr))' } }}>
        {steps.map((step) => (
          <Box component="li" key={step.id} data-step={step.id}>
            {'focus' in step ? (
              <Link component="button" type="button" onClick={() => focusField(step.focus)} sx={{ fontWeight: 600, textAlign: 'left', verticalAlign: 'baseline' }}>
                {step.label}
              </Link>
            ) : (
              <Link {...(step.file ? { href: step.to } : { component: RouterLink, to: step.to })} sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                {step.label}
              </Link>
            )}
            <Typography color="text.secondary" sx={{ fontSize: 14 }}>
              {step.why}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
