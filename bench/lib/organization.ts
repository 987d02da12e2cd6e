// Creates the organization through the real actions: realm, users (with their personal
// recipients and default-stream subscriptions), streams, subscriptions and direct-message groups.
import { runSystemAction } from '../../src/actions/context.js';
import { getOrCreateDirectMessageGroup } from '../../src/actions/direct-message-group.js';
import { doCreateRealm } from '../../src/actions/realm-create.js';
import { doCreateStream } from '../../src/actions/stream-create.js';
import { bulkAddSubscriptions } from '../../src/actions/subscriptions.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import type { RealmRow, StreamRow, UserRow } from '../../src/db/schema.js';
import { BotType } from '../../src/lib/roles.js';
import { huddleHashOf } from '../../src/queries/recipients.js';
import { getStreamByName, subscriberIdsByRecipient } from '../../src/queries/streams.js';
import type { Services } from '../../src/services.js';
import type { Plan } from './plan.js';
import { ProgressBar } from './progress.js';

export const OWNER_PASSWORD = 'confab-bench';

export interface Organization {
  realm: RealmRow;
  /** Same order as plan.users. */
  users: UserRow[];
  /** Same order as plan.streams. */
  streams: StreamRow[];
  /** Active subscriber ids of each stream, exactly as the send action reads them. */
  recipientsOfStream: number[][];
  /** Recipient id of each planned group. */
  groupRecipients: number[];
}

const USERS_PER_TRANSACTION = 100;
const STREAMS_PER_TRANSACTION = 10;

export async function createOrganization(services: Services, plan: Plan, realmUrl: string): Promise<Organization> {
  const [ownerPlan, ...others] = plan.users;
  const { realm, owner } = await runSystemAction(services, (ctx) =>
    doCreateRealm(ctx, {
      name: 'Confab Bench',
      url: realmUrl,
      owner: { email: ownerPlan!.email, fullName: ownerPlan!.fullName, password: OWNER_PASSWORD },
    }),
  );

  const users: UserRow[] = [owner];
  const userBar = new ProgressBar('users  ', plan.users.length);
  for (let start = 0; start < others.length; start += USERS_PER_TRANSACTION) {
    const batch = others.slice(start, start + USERS_PER_TRANSACTION);
    const created = await runSystemAction(services, async (ctx) => {
      const out: UserRow[] = [];
      for (const spec of batch) {
        out.push(
          await doCreateUser(ctx, realm, {
            email: spec.email,
            fullName: spec.fullName,
            role: spec.role,
            isBot: spec.isBot,
            ...(spec.isBot ? { botType: BotType.GENERIC, botOwnerId: owner.id } : {}),
          }),
        );
      }
      return out;
    });
    users.push(...created);
    userBar.update(users.length);
  }
  userBar.finish();

  const general = await getStreamByName(services.db, realm.id, 'general');
  if (!general) throw new Error('the new organization has no "general" stream');
  const streams: StreamRow[] = [general];
  const streamBar = new ProgressBar('streams', plan.streams.length);
  const description = () => plan.text.topics(1)[0] ?? '';
  for (let start = 1; start < plan.streams.length; start += STREAMS_PER_TRANSACTION) {
    const batch = plan.streams.slice(start, start + STREAMS_PER_TRANSACTION);
    const created = await runSystemAction(services, async (ctx) => {
      const out: StreamRow[] = [];
      for (const spec of batch) {
        const stream = await doCreateStream(ctx, realm, {
          name: spec.name,
          description: `About ${description()}.`,
          inviteOnly: spec.inviteOnly,
          historyPublicToSubscribers: spec.historyPublic,
          creatorId: users[spec.subscribers[0] ?? 0]!.id,
        });
        await bulkAddSubscriptions(ctx, realm, [stream], spec.subscribers.map((i) => users[i]!));
        out.push(stream);
      }
      return out;
    });
    streams.push(...created);
    streamBar.update(streams.length);
  }
  // Bots join general only when planned to; everyone else already did when they were created.
  const generalExtra = plan.streams[0]!.subscribers.filter((i) => plan.users[i]!.isBot).map((i) => users[i]!);
  if (generalExtra.length > 0) {
    await runSystemAction(services, (ctx) => bulkAddSubscriptions(ctx, realm, [general], generalExtra));
  }
  streamBar.finish();

  const groupRecipients = await runSystemAction(services, async (ctx) => {
    const out: number[] = [];
    for (const group of plan.groups) {
      const ids = group.members.map((i) => users[i]!.id);
      out.push(await getOrCreateDirectMessageGroup(ctx, huddleHashOf(ids), ids.length));
    }
    return out;
  });

  const byRecipient = await subscriberIdsByRecipient(services.db, streams.map((s) => s.recipient_id!));
  const recipientsOfStream = streams.map((s) => byRecipient.get(s.recipient_id!) ?? []);
  return { realm, users, streams, recipientsOfStream, groupRecipients };
}
