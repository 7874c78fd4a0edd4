import { nextTask } from '@bimi/ui/next-task';

/**
 * The dashboard's chunk starts here: nothing is imported statically, so this module is all that
 * runs once its files arrived (in a task after their arrival: yield-to-browser.js). This remote's
 * Zod (with the API's error schema), the monitors' and the orders' contracts (their schemas are
 * built as their modules run) and the page then run in tasks of their own; in one they were a task
 * of 40–65 ms at 4× CPU throttling on the 2-core host, the dashboard's longest after the frame's.
 */
export async function loadDashboardPage() {
  await import(/* webpackMode: "eager" */ '@bimi/contracts/api-error');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@bimi/contracts/monitors');
  await nextTask();
  await import(/* webpackMode: "eager" */ '@bimi/contracts/orders');
  await nextTask();
  return import(/* webpackMode: "eager" */ './DashboardPage');
}
