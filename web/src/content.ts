// What the page adds to a message's server-rendered content once it is shown: spoilers that open
// and close (by mouse or keyboard), and mentions of the reader marked apart from other mentions.
import './content.css';

/** Wires the spoilers in `root` (once each) and marks mentions of `meId` (and of everyone). */
export function prepareContent(root: HTMLElement, meId: number): void {
  for (const header of root.querySelectorAll<HTMLElement>('.spoiler-block > .spoiler-header')) {
    if (header.dataset.wired) continue;
    header.dataset.wired = '1';
    const content = header.nextElementSibling as HTMLElement | null;
    if (!content) continue;
    header.setAttribute('role', 'button');
    header.tabIndex = 0;
    header.setAttribute('aria-expanded', 'false');
    if (!header.textContent?.trim()) header.textContent = 'Spoiler';
    const toggle = () => {
      const open = header.getAttribute('aria-expanded') !== 'true';
      header.setAttribute('aria-expanded', String(open));
      content.setAttribute('aria-hidden', String(!open));
      header.parentElement?.classList.toggle('open', open);
    };
    header.addEventListener('click', toggle);
    header.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        e.stopPropagation();
        toggle();
      }
    });
  }
  for (const mention of root.querySelectorAll<HTMLElement>('.user-mention')) {
    const id = mention.dataset.userId;
    mention.classList.toggle('me', id === String(meId) || id === '*');
  }
}

/** Whether a message mentions the reader (directly, by a group, or everyone), from its flags. */
export function mentionsMe(flags: readonly string[]): boolean {
  return flags.includes('mentioned') || flags.includes('wildcard_mentioned');
}
