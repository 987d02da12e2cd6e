// The server renders a Unicode emoji as <span class="emoji emoji-1f389" title="tada">:tada:</span>,
// for clients that draw it from a sprite sheet; this client shows the character itself instead.

/** The characters of an `emoji-<code points>` class ("emoji-1f468-200d-1f4bb"), or null for another class. */
export function emojiFromClass(className: string): string | null {
  const match = /(?:^|\s)emoji-([0-9a-f]+(?:-[0-9a-f]+)*)(?:\s|$)/.exec(className);
  if (!match) return null;
  const points = match[1]!.split('-').map((hex) => Number.parseInt(hex, 16));
  return points.every((p) => p <= 0x10ffff) ? String.fromCodePoint(...points) : null;
}

/** Replaces the names inside a rendered message's emoji spans by the emoji they stand for. */
export function showEmoji(root: ParentNode): void {
  for (const span of root.querySelectorAll<HTMLElement>('span.emoji')) {
    const characters = emojiFromClass(span.className);
    if (characters) span.textContent = characters;
  }
}
