/**
 * The least height of the categories page and of its loading skeleton: a screen, so the shell's footer sits below the
 * fold while the skeleton shows and stays there when the page streams in (a shorter skeleton let the footer jump,
 * a layout shift on every visit). A short list leaves room below it; nothing moves.
 */
export const CATEGORIES_SPACE = "min-h-svh";
