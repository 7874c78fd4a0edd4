import { nextTask } from '@bimi/ui/next-task';
import { afterStartUpParts } from '../../start-up';

/**
 * The account frame's chunk starts here: nothing is imported statically, so the chunk's arrival
 * runs no module but this one. The frame's modules (the same chunk: eager imports) run once the
 * start-up has run its parts, the sidebar with its icons in a task of its own.
 */
export async function loadAccountLayoutInParts() {
  await afterStartUpParts();
  await nextTask();
  await import(/* webpackMode: "eager" */ './Sidebar');
  await nextTask();
  return import(/* webpackMode: "eager" */ './AccountLayout');
}
