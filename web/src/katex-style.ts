// KaTeX's stylesheet and fonts (bundled from the katex package, served by Confab) are only needed
// once a message with math is shown, so they stay out of the first load.
let loading: Promise<unknown> | null = null;

export function loadKatexStyle(): Promise<unknown> {
  loading ??= import('./katex-css.js');
  return loading;
}
