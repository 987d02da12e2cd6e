// Register areas whose features Confab does not have yet: each answers the form the reference
// gives an organization that has none of it, so clients that read the key at start-up work.
import { STOP_WORDS } from './catalogs.js';

export function placeholderState(want: (type: string) => boolean): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  if (want('default_stream_groups')) state.realm_default_stream_groups = [];
  // Confab runs no embedded bots and offers no incoming-webhook integrations.
  if (want('realm_embedded_bots')) state.realm_embedded_bots = [];
  if (want('realm_incoming_webhook_bots')) state.realm_incoming_webhook_bots = [];
  if (want('stop_words')) state.stop_words = [...STOP_WORDS];
  if (want('video_calls')) state.has_zoom_token = false;
  // No GIPHY key is configured: the reference then answers an empty string.
  if (want('giphy')) state.giphy_api_key = '';
  return state;
}
