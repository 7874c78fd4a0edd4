import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import type { ToolAnswer, ToolName } from '@bimi/contracts/tools';
import type { ToolRunState } from '../lib/useToolRun';

export { ResultSection } from './ResultSection';

export interface ToolResultProps<Tool extends ToolName> {
  state: ToolRunState<Tool>;
  onRetry: () => void;
  before?: (answer: ToolAnswer<Tool>) => ReactNode;
  after?: (answer: ToolAnswer<Tool>) => ReactNode;
  recordsTitle?: string;
}

// The progress bar, the failure's alert, the verdict, the checks and the records load when a check
// starts: a tool page's first view shows its form alone (issue 34).
const ToolOutcome = lazy(() => import('./ToolOutcome').then((module) => ({ default: module.ToolOutcome as ComponentType<ToolResultProps<ToolName>> })));

/**
 * What a checker shows under its form: progress while it runs, the failure with a Retry, or
 * the answer: the verdict, what the tool adds (`before`/`after` the checks), every check,
 * then the records as published.
 */
export function ToolResult<Tool extends ToolName>(props: ToolResultProps<Tool>) {
  if (props.state.status === 'idle') return null;
  return (
    <Suspense fallback={null}>
      <ToolOutcome {...(props as unknown as ToolResultProps<ToolName>)} />
    </Suspense>
  );
}
