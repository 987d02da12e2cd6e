// Folds stream update and default_streams events into a POST /register state.
import type { InitialState } from './initial-state.js';

type Dict = Record<string, any>;

const LISTS = ['streams', 'subscriptions', 'unsubscribed', 'never_subscribed'] as const;
const byName = (a: Dict, b: Dict) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** One changed property of a stream, wherever the state lists the stream. */
export function applyStreamUpdate(state: InitialState, event: Dict): void {
  for (const key of LISTS) {
    const list = state[key] as Dict[] | undefined;
    if (!Array.isArray(list)) continue;
    for (const stream of list) {
      if (stream.stream_id !== event.stream_id) continue;
      stream[event.property] = event.value;
      if (event.property === 'description' && 'rendered_description' in event) stream.rendered_description = event.rendered_description;
      if ('history_public_to_subscribers' in event) stream.history_public_to_subscribers = event.history_public_to_subscribers;
      if ('is_web_public' in event) stream.is_web_public = event.is_web_public;
    }
    // Lists are kept by name.
    if (event.property === 'name') list.sort(byName);
  }
}

export function applyDefaultStreams(state: InitialState, event: Dict): void {
  if (Array.isArray(state.realm_default_streams)) state.realm_default_streams = [...(event.default_streams as number[])];
}
