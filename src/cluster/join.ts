// Joining a cluster (--redis-url): the Redis connections, the bus through Redis, this process's
// membership, and what other members ask of it (queues handed over, queues to delete).
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import { BadEventQueueIdError, ClusterUnavailableError } from '../errors.js';
import { saveSnapshots } from '../events/persistence.js';
import type { QueueSnapshot } from '../events/queue.js';
import { invalidateRealmLinkifiers } from '../queries/linkifier-cache.js';
import { notePresenceWrite } from '../queries/presence-cache.js';
import type { Clock, Services } from '../services.js';
import { ClusterMember } from './cluster.js';
import { type Handoff, RedisBus } from './redis-bus.js';
import { connectRedis } from './redis.js';

export interface ClusterParts {
  member: ClusterMember;
  bus: RedisBus;
}

export async function connectCluster(config: Config, clock: Clock, onError: (error: unknown) => void): Promise<ClusterParts> {
  const url = config.redisUrl!;
  const [redis, publisher, subscriber] = await Promise.all([
    connectRedis(url, { name: 'confab' }),
    connectRedis(url, { name: 'confab-publish', waitForever: true }),
    connectRedis(url, { name: 'confab-subscribe', waitForever: true }),
  ]);
  const member = new ClusterMember(redis, publisher, subscriber, config.redisPrefix);
  const bus = new RedisBus(publisher, subscriber, config.redisPrefix, clock, onError);
  await bus.start();
  return { member, bus };
}

/**
 * Takes queues another member handed over, and catches them up on what was published meanwhile;
 * confirms once they are here (or saved), so the sender may forget them.
 */
async function adopt(services: Services, bus: RedisBus, member: ClusterMember, handoff: Handoff): Promise<void> {
  // Withdrawn already: the sender waited in vain (this process was paused) and placed them elsewhere.
  if (!(await member.claimHandoff(handoff.id))) return;
  if (services.queues.isClosing) {
    // Handed over just as this process stops too (all stopping together): kept in the store for the next start.
    await saveSnapshots(services.db, handoff.snapshots, true, handoff.afterSeq);
    return member.confirmHandoff(handoff.id);
  }
  const ids = await services.queues.restore(handoff.snapshots);
  const missed = bus.since(handoff.afterSeq);
  if (missed === null) {
    // Too long in transit to catch up: their clients register again.
    for (const snapshot of handoff.snapshots) services.queues.drop(snapshot.id);
    return member.confirmHandoff(handoff.id);
  }
  services.queues.deliverTo(ids, missed.map((entry) => entry.batch));
  await member.recordMoved(ids);
  await member.confirmHandoff(handoff.id);
  services.log?.info({ from: handoff.from, queues: ids.length }, 'took over event queues');
}

/** Answers what other members ask of this one. Call once the queue registry exists. */
export function serveMembers(services: Services, { bus, member }: ClusterParts): void {
  bus.onHandoff((handoff) => {
    if (handoff.to !== member.id) return;
    adopt(services, bus, member, handoff).catch((error: unknown) => services.log?.error({ err: error }, 'taking over event queues failed'));
  });
  bus.onQueueDeletion(({ queueId, userId }) => {
    const queue = services.queues.get(queueId);
    if (queue && queue.spec.userId === userId) services.queues.delete(queueId, userId);
  });
  // Applied by the process that made them too (again, to the same effect).
  bus.onNotice((notice) => {
    if (notice.kind === 'presence') notePresenceWrite(services.db, notice.realmId, notice.entry);
    else invalidateRealmLinkifiers(notice.realmId);
  });
  bus.onGap(() => {
    services.log?.warn('events were missed while Redis was away; dropping this process\'s event queues');
    services.queues.dropAll();
  });
}

/**
 * DELETE /events for a queue another member holds: asked of that member, if it is there. Without
 * Redis the holder cannot be looked up nor asked: the client is to try again (the queue may be alive).
 */
export async function deleteQueueElsewhere(services: Services, queueId: string, userId: number): Promise<void> {
  const member = services.cluster!;
  let gone: boolean;
  try {
    const holder = await member.queueHolder(queueId);
    gone = holder === null || holder === member.id || (await member.state(holder)).kind === 'gone';
    if (!gone) await (services.bus as RedisBus).deleteQueue({ queueId, userId });
  } catch (error) {
    services.log?.warn({ err: error }, 'could not ask the process holding an event queue to delete it');
    throw new ClusterUnavailableError();
  }
  if (gone) throw new BadEventQueueIdError(queueId);
}

/** How long a receiver has to claim a hand-off before the sender withdraws it (it may be paused or dead). */
const CLAIM_WAIT_MS = 1500;
/** How long a receiver that claimed a hand-off has to confirm it (reading the queues' users takes queries). */
const ADOPT_WAIT_MS = 3000;
const HANDOFF_POLL_MS = 25;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Offers the queues to `peer` and waits for its confirmation. False when it did not take them:
 * it never claimed them (withdrawn), or claimed them and fell silent.
 */
async function offer(member: ClusterMember, bus: RedisBus, peer: string, afterSeq: number, snapshots: QueueSnapshot[]): Promise<boolean> {
  const id = randomUUID();
  await member.offerHandoff(id);
  await bus.handOff({ id, from: member.id, to: peer, afterSeq, snapshots });
  const claimBy = Date.now() + CLAIM_WAIT_MS;
  const confirmBy = claimBy + ADOPT_WAIT_MS;
  for (;;) {
    const state = await member.handoffState(id);
    if (state === 'done') return true;
    if (state === 'offered') {
      if (Date.now() > claimBy && (await member.withdrawHandoff(id))) return false;
    } else if (state !== 'taken' || Date.now() > confirmBy) {
      // Claimed and never confirmed (the receiver died while taking them), or the state is gone.
      return false;
    }
    await pause(HANDOFF_POLL_MS);
  }
}

/**
 * A stopping member's queues go to another member that is up (with the number of the last batch
 * they took, so the new holder can catch them up), which confirms taking them; one that does not
 * confirm in time is passed over for the next. With none left, they are saved in the store.
 */
export async function handOverQueues(services: Services): Promise<void> {
  const member = services.cluster!;
  const bus = services.bus as RedisBus;
  let peer = await member.anyOtherMember().catch(() => null);
  if (!peer) return services.queues.save();
  services.queues.shutdown();
  await services.queues.settle();
  const afterSeq = bus.seq;
  const snapshots = services.queues.detachAll();
  const tried = new Set<string>();
  while (peer) {
    tried.add(peer);
    if (await offer(member, bus, peer, afterSeq, snapshots).catch(() => false)) return;
    services.log?.warn({ to: peer }, 'a member did not take this process\'s event queues; trying another');
    peer = await member.anyOtherMember(tried).catch(() => null);
  }
  // Taken by no one (a receiver that claimed them and died may have some: a duplicate is never polled).
  await saveSnapshots(services.db, snapshots, true, afterSeq);
}
