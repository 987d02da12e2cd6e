// The "client" a message was sent from, as the reference derives it from the User-Agent:
// Zulip's own apps and libraries name themselves ("ZulipMobile/27.1 ..."); anything else is unspecified.
export function clientNameFromUserAgent(userAgent: string | undefined): string {
  const name = userAgent?.trim().split(/[\s/]/, 1)[0] ?? '';
  return name.startsWith('Zulip') ? name : 'Unspecified';
}

/** Full user interfaces mark their user's own messages read; integrations and scripts do not. */
const UI_CLIENTS = new Set([
  'zulipandroid', 'zulipios', 'zulipdesktop', 'zulipmobile', 'zulipelectron', 'zulipterminal', 'snipe',
  'website', 'ios', 'android',
]);

export function defaultReadBySender(clientName: string): boolean {
  const name = clientName.toLowerCase();
  return UI_CLIENTS.has(name) || name.includes('desktop app');
}
