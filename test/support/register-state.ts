// The check every event type gets: an earlier POST /register state, plus the events an action
// sent to that user, equals the state fetched afresh afterwards.
import assert from 'node:assert/strict';
import type { DevUserName } from '../../src/dev-seed.js';
import { applyEvents } from '../../src/events/apply.js';
import { fetchInitialState, type InitialState } from '../../src/events/initial-state.js';
import type { ClientCapabilities } from '../../src/events/types.js';
import { getRealmById } from '../../src/queries/realms.js';
import { getUserById } from '../../src/queries/users.js';
import type { TestContext } from './context.js';
import { checkEvent } from './openapi-check.js';

/** What a current client declares. */
export const CLIENT_CAPABILITIES: ClientCapabilities = {
  notification_settings_null: true,
  bulk_message_deletion: true,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: true,
  linkifier_url_template: false,
};

export interface StateRequest {
  /** fetch_event_types; null (the default) for every area. */
  wanted?: string[] | null;
  includeSubscribers?: boolean;
  capabilities?: Partial<ClientCapabilities>;
  slimPresence?: boolean;
}

/** The /register state of a dev user now, from fresh user and realm rows. */
export async function fetchStateOf(ctx: TestContext, name: DevUserName, request: StateRequest = {}): Promise<InitialState> {
  const realm = (await getRealmById(ctx.store.db, ctx.seed.realm.id))!;
  const user = (await getUserById(ctx.store.db, realm.id, ctx.seed.users[name].id))!;
  return fetchInitialState(ctx.store.db, user, realm, request.wanted ?? null, {
    now: Math.floor(ctx.clock.now()),
    clientGravatar: false,
    includeSubscribers: request.includeSubscribers ?? true,
    capabilities: { ...CLIENT_CAPABILITIES, ...request.capabilities },
    serverGeneration: 1,
    development: true,
    slimPresence: request.slimPresence ?? false,
  });
}

export interface FoldCheck {
  /** Users whose state is compared. */
  watchers: DevUserName[];
  action: () => Promise<void>;
  /** Watchers whose state must actually change (default: all of them). */
  changing?: DevUserName[];
  /** Also require the other watchers' state to stay exactly as it was. */
  strict?: boolean;
  request?: StateRequest;
}

/**
 * Runs the action; checks every event it sent against the reference schema, then folds each
 * watcher's events into their earlier state and compares with a fresh one. Returns the events'
 * "type/op" labels in order.
 */
export async function verifyFolding(ctx: TestContext, check: FoldCheck): Promise<string[]> {
  const { watchers, action, changing = watchers, strict = false, request = {} } = check;
  const before = new Map<DevUserName, InitialState>();
  for (const name of watchers) before.set(name, await fetchStateOf(ctx, name, request));
  ctx.clearEvents();
  await action();
  ctx.events.forEach(({ event }, id) => {
    // What only the queue registry reads goes before any client sees the event.
    const { internal: _internal, sender_queue_id: _queue, ...visible } = event;
    checkEvent({ ...visible, id });
  });
  for (const name of watchers) {
    const user = ctx.seed.users[name];
    const old = before.get(name)!;
    const unchanged = structuredClone(old);
    const events = ctx.events.filter((d) => d.users.includes(user.id)).map((d) => structuredClone(d.event));
    applyEvents(old, events, { userId: user.id, role: user.role, includeSubscribers: request.includeSubscribers ?? true, slimPresence: request.slimPresence ?? false });
    assert.deepEqual(old, await fetchStateOf(ctx, name, request), `state of ${name}`);
    if (changing.includes(name)) assert.notDeepEqual(old, unchanged, `nothing changed for ${name}`);
    else if (strict) assert.deepEqual(old, unchanged, `${name} should see no change`);
  }
  return ctx.events.map((d) => ('op' in d.event ? `${d.event.type}/${String(d.event.op)}` : String(d.event.type)));
}
