import { lazy, Suspense, type ReactElement } from 'react';
import type { TooltipProps } from '@mui/material/Tooltip';

/**
 * MUI's Tooltip, with Popper (about 11 KB compressed and a long task to run on a slow phone),
 * loads only when the collapsed sidebar shows one: the expanded sidebar, what most visitors
 * see, never downloads it. Until it has loaded, or if it cannot, the item shows without its tooltip.
 */
const Tooltip = lazy(() =>
  import('@mui/material/Tooltip').catch(() => ({
    // Its code would not load (the network dropped): the items go without tooltips, never without the sidebar.
    default: ({ children }: TooltipProps) => children,
  })),
);

/** The name of a collapsed sidebar item, shown at its right on hover and focus. */
export function CollapsedTooltip({ title, children }: { title: string; children: ReactElement }) {
  return (
    <Suspense fallback={children}>
      <Tooltip title={title} placement="right">
        {children}
      </Tooltip>
    </Suspense>
  );
}
