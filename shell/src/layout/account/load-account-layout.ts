/** The account frame's code (sidebar, tabs, sheet): its own chunks, which visitors of the public site never download. */
export const loadAccountLayout = () => import('./AccountLayout');
