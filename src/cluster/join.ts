// Joining a cluster (--redis-url): the Redis connections, the bus through Redis, this process's
// membership, and what other members ask of it (queues handed over, queues to delete).
import type { Config } from '../config.js';
import { BadEventQueueIdError } from '../errors.js';
import { saveSnapshots } from '../events/persistence.js';
import { invalidateRealmLinkifiers } from '../lib/linkifiers/cache.js';
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

/** Takes queues another member handed over, and catches them up on what was published meanwhile. */
async function adopt(services: Services, bus: RedisBus, member: ClusterMember, handoff: Handoff): Promise<void> {
  // Handed over just as this process stops too (all stopping together): kept in the store for the next start.
  if (services.queues.isClosing) return saveSnapshots(services.db, handoff.snapshots, true);
  const ids = await services.queues.restore(handoff.snapshots);
  const missed = bus.since(handoff.afterSeq);
  if (missed === null) {
    // Too long in transit to catch up: their clients register again.
    for (const snapshot of handoff.snapshots) services.queues.drop(snapshot.id);
    return;
  }
  services.queues.deliverTo(ids, missed.map((entry) => entry.batch));
  await member.recordMoved(ids);
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

/** DELETE /events for a queue another member holds: asked of that member, if it is there. */
export async function deleteQueueElsewhere(services: Services, queueId: string, userId: number): Promise<void> {
  const member = services.cluster!;
  const holder = await member.queueHolder(queueId);
  if (holder === null || holder === member.id || (await member.state(holder)).kind === 'gone') throw new BadEventQueueIdError(queueId);
  await (services.bus as RedisBus).deleteQueue({ queueId, userId });
}

/**
 * A stopping member's queues go to another member that is up (with the number of the last batch
 * they took, so the new holder can catch them up); with none left, they are saved in the store.
 */
export async function handOverQueues(services: Services): Promise<void> {
  const member = services.cluster!;
  const bus = services.bus as RedisBus;
  const peer = await member.anyOtherMember().catch(() => null);
  if (!peer) return services.queues.save();
  services.queues.shutdown();
  await services.queues.settle();
  const afterSeq = bus.seq;
  const snapshots = services.queues.detachAll();
  await bus.handOff({ from: member.id, to: peer, afterSeq, snapshots });
}
