/**
 * The least height of the categories page: a screen, so the shell's footer sits below the fold whatever the tree's
 * height. The editor hydrates after the load event and its rows settle then; with a shorter page the footer moved
 * with them, in sight (Lighthouse: CLS 0.157 on a phone).
 */
export const CATEGORIES_SPACE = "min-h-svh";
