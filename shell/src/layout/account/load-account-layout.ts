let layout: Promise<typeof import('./AccountLayout')> | undefined;

/**
 * The account frame's code (sidebar, tabs, sheet): its own chunks, which visitors of the public
 * site never download. They download when this is first called; their modules run in parts
 * (account-layout-parts.ts). A failed download is asked for again by the next call.
 */
export function loadAccountLayout() {
  layout ??= import('./account-layout-parts')
    .then(({ runAccountLayout }) => runAccountLayout())
    .catch((error: unknown) => {
      layout = undefined;
      throw error;
    });
  return layout;
}
