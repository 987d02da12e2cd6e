// POST /register: create the queue first, then read the state, then fold in whatever the
// queue caught meanwhile, so nothing published in between is lost or counted twice.
import type { DbOrTx, RealmRow, UserRow } from '../../db/schema.js';
import { ApiError } from '../../errors.js';
import type { NarrowTerm } from '../../lib/narrow/types.js';
import { isGuest } from '../../lib/roles.js';
import { versionFields } from '../../lib/version.js';
import { applyEvents } from '../apply.js';
import { fetchInitialState } from '../initial-state.js';
import type { ClientCapabilities, EventQueues, QueueSpec } from '../types.js';
import type { UploadLimits } from './realm.js';

/** The serving process's start: clients reload when it changes (server_generation). */
const SERVER_GENERATION = Math.floor(Date.now() / 1000);

/** Queues live at most a week, as the reference allows. */
export const MAX_QUEUE_LIFESPAN_SECONDS = 7 * 24 * 3600;

export interface RegisterRequest {
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  narrow: NarrowTerm[];
  capabilities: ClientCapabilities;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  allPublicStreams: boolean;
  includeSubscribers: boolean;
  slimPresence?: boolean;
  /** 0: the server's default idle timeout. */
  queueLifespanSecs: number;
}

/** What the queue of a register request holds; refuses all_public_streams to guests. */
export function queueSpecFor(
  user: UserRow,
  realm: RealmRow,
  request: Omit<RegisterRequest, 'fetchEventTypes' | 'includeSubscribers'>,
): QueueSpec {
  if (request.allPublicStreams && isGuest(user)) throw new ApiError('User not authorized for this query');
  return {
    userId: user.id,
    realmId: realm.id,
    eventTypes: request.eventTypes,
    narrow: request.narrow,
    capabilities: request.capabilities,
    applyMarkdown: request.applyMarkdown,
    clientGravatar: request.clientGravatar,
    allPublicStreams: request.allPublicStreams,
    ...(request.queueLifespanSecs > 0 ? { idleSeconds: Math.min(request.queueLifespanSecs, MAX_QUEUE_LIFESPAN_SECONDS) } : {}),
  };
}

export async function registerQueue(
  deps: { db: DbOrTx; queues: Pick<EventQueues, 'create'>; now: number; development: boolean; webPublicStreamsEnabled?: boolean; uploads?: UploadLimits },
  user: UserRow,
  realm: RealmRow,
  request: RegisterRequest,
): Promise<Record<string, unknown>> {
  const queue = await deps.queues.create(queueSpecFor(user, realm, request), { realm, user });
  const wanted = request.fetchEventTypes ?? request.eventTypes;
  const state = await fetchInitialState(deps.db, user, realm, wanted, {
    now: deps.now,
    clientGravatar: request.clientGravatar,
    includeSubscribers: request.includeSubscribers,
    capabilities: request.capabilities,
    serverGeneration: SERVER_GENERATION,
    development: deps.development,
    webPublicStreamsEnabled: deps.webPublicStreamsEnabled ?? false,
    ...(deps.uploads ? { uploads: deps.uploads } : {}),
    slimPresence: request.slimPresence ?? false,
  });
  const pending = queue.pending();
  applyEvents(state, pending, { userId: user.id, role: user.role, includeSubscribers: request.includeSubscribers, slimPresence: request.slimPresence ?? false });
  return {
    queue_id: queue.id,
    last_event_id: pending.length > 0 ? pending[pending.length - 1]!.id : -1,
    ...versionFields(),
    ...state,
  };
}
