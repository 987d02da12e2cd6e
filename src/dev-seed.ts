// The demo organization dev mode starts with, and the fixture every test builds on.
import type { RealmRow, StreamRow, UserRow } from './db/schema.js';
import { runAction, runSystemAction } from './actions/context.js';
import { checkSendMessage } from './actions/message-send.js';
import type { Addressee } from './lib/addressee.js';
import { doCreateRealm } from './actions/realm-create.js';
import { doCreateStream } from './actions/stream-create.js';
import { bulkAddSubscriptions } from './actions/subscriptions.js';
import { doCreateUser } from './actions/user-create.js';
import { BotType, Role } from './lib/roles.js';
import type { Services } from './services.js';

export const DEV_PASSWORD = 'confab-dev';
export const DEV_REALM_NAME = 'Confab Dev';

export const DEV_USERS = {
  olivia: { email: 'olivia@confab.test', fullName: 'Olivia Owner', role: Role.OWNER },
  adam: { email: 'adam@confab.test', fullName: 'Adam Admin', role: Role.ADMINISTRATOR },
  maya: { email: 'maya@confab.test', fullName: 'Maya Moderator', role: Role.MODERATOR },
  mark: { email: 'mark@confab.test', fullName: 'Mark Member', role: Role.MEMBER },
  mona: { email: 'mona@confab.test', fullName: 'Mona Member', role: Role.MEMBER },
  milo: { email: 'milo@confab.test', fullName: 'Milo Member', role: Role.MEMBER },
  gus: { email: 'gus@confab.test', fullName: 'Gus Guest', role: Role.GUEST },
} as const;

export type DevUserName = keyof typeof DEV_USERS | 'welcomeBot';

export interface DevSeed {
  realm: RealmRow;
  users: Record<DevUserName, UserRow>;
  streams: Record<'general' | 'engineering' | 'design' | 'leadership', StreamRow>;
}

export async function seedDevRealm(services: Services, url: string): Promise<DevSeed> {
  return runSystemAction(services, async (ctx) => {
    const { realm, owner } = await doCreateRealm(ctx, {
      name: DEV_REALM_NAME,
      url,
      owner: { ...DEV_USERS.olivia, password: DEV_PASSWORD },
      withGeneralStream: false,
    });
    const users = { olivia: owner } as Record<DevUserName, UserRow>;
    for (const [key, spec] of Object.entries(DEV_USERS)) {
      if (key === 'olivia') continue;
      users[key as DevUserName] = await doCreateUser(ctx, realm, { ...spec, password: DEV_PASSWORD });
    }
    users.welcomeBot = await doCreateUser(ctx, realm, {
      email: 'welcome-bot@confab.test',
      fullName: 'Welcome Bot',
      isBot: true,
      botType: BotType.GENERIC,
      botOwnerId: owner.id,
    });
    const streams = {
      general: await doCreateStream(ctx, realm, { name: 'general', description: 'Everyone is here.', isDefault: true, creatorId: owner.id }),
      engineering: await doCreateStream(ctx, realm, { name: 'engineering', description: 'Building **Confab**.', creatorId: owner.id }),
      design: await doCreateStream(ctx, realm, { name: 'design', description: 'How it looks and feels.', creatorId: owner.id }),
      leadership: await doCreateStream(ctx, realm, {
        name: 'leadership',
        description: 'Owners and administrators.',
        inviteOnly: true,
        historyPublicToSubscribers: true,
        creatorId: owner.id,
      }),
    };
    const { olivia, adam, maya, mark, mona, milo, welcomeBot } = users;
    await bulkAddSubscriptions(ctx, realm, [streams.general], [olivia, adam, maya, mark, mona, milo, welcomeBot]);
    await bulkAddSubscriptions(ctx, realm, [streams.engineering], [olivia, adam, mark, milo]);
    await bulkAddSubscriptions(ctx, realm, [streams.design], [maya, mona, milo]);
    await bulkAddSubscriptions(ctx, realm, [streams.leadership], [olivia, adam]);
    return { realm, users, streams };
  });
}

type Line = [DevUserName, string, string, string] | [DevUserName, DevUserName[], string];

/** A few days of conversation: [sender, stream, topic, content] or [sender, [recipients], content]. */
const DEV_CONVERSATION: Line[] = [
  ['olivia', 'general', 'welcome', 'Welcome to **Confab Dev**, everyone!'],
  ['mark', 'general', 'welcome', 'Thanks, happy to be here.'],
  ['mona', 'general', 'welcome', 'Hello all :wave:'],
  ['milo', 'general', 'welcome', 'Hi! Where do we talk about builds?'],
  ['adam', 'general', 'welcome', 'In #**engineering**, topic "builds".'],
  ['maya', 'general', 'lunch', 'Anyone up for lunch at noon?'],
  ['mark', 'general', 'lunch', 'Count me in.'],
  ['mona', 'general', 'lunch', 'Same, the place with the good soup.'],
  ['maya', 'general', 'lunch', 'Booked a table for four.'],
  ['mark', 'engineering', 'builds', 'The nightly build is green again.'],
  ['milo', 'engineering', 'builds', 'Nice. What was the fix?'],
  ['mark', 'engineering', 'builds', 'A flaky test waited on a real clock; it uses the test clock now.'],
  ['adam', 'engineering', 'builds', 'Please link the change next time: https://example.com/changes/42'],
  ['olivia', 'engineering', 'release 0.2', 'Release 0.2 is planned for Friday.'],
  ['milo', 'engineering', 'release 0.2', 'I will finish the search work by Thursday.'],
  ['mark', 'engineering', 'release 0.2', 'Release notes draft:\n- faster search\n- fewer flaky tests'],
  ['adam', 'engineering', 'code review', 'Reviews should land within a day, please.'],
  ['milo', 'engineering', 'code review', '/me promises to review faster'],
  ['maya', 'design', 'colours', 'Trying a teal accent for links.'],
  ['mona', 'design', 'colours', 'Teal reads well on the dark theme too.'],
  ['milo', 'design', 'colours', 'Check the contrast ratio for small text.'],
  ['mona', 'design', 'icons', 'New icon set is in the shared folder.'],
  ['maya', 'design', 'icons', 'Love the rounded corners.'],
  ['olivia', 'leadership', 'hiring', 'We have budget for two more engineers.'],
  ['adam', 'leadership', 'hiring', 'I will draft the job posts this week.'],
  ['olivia', 'leadership', 'roadmap', 'Next quarter: mobile polish and search.'],
  ['mark', ['mona'], 'Can you look at my design question later?'],
  ['mona', ['mark'], 'Sure, after lunch.'],
  ['mark', ['mona'], 'Thanks!'],
  ['adam', ['olivia'], 'The hiring plan is ready for review.'],
  ['olivia', ['adam'], 'Great, I will read it tonight.'],
  ['milo', ['mark', 'mona'], 'Shall we pair on the search feature tomorrow?'],
  ['mona', ['mark', 'milo'], 'Tomorrow morning works for me.'],
  ['mark', ['mona', 'milo'], 'Morning it is.'],
  ['gus', ['maya'], 'Hi Maya, which stream should I read first?'],
  ['maya', ['gus'], 'Ask Adam to add you to a stream; the welcome topic in general is a good start.'],
  ['welcomeBot', ['gus'], 'Welcome, Gus! Ask Maya if you need anything.'],
  ['mark', ['mark'], 'Note to self: update the release notes.'],
];

/** Sends the dev conversation, spread over the last few days. */
export async function seedDevMessages(services: Services, seed: DevSeed): Promise<number> {
  const start = Math.floor(services.clock.now()) - DEV_CONVERSATION.length * 3 * 3600;
  let sent = 0;
  for (const [i, line] of DEV_CONVERSATION.entries()) {
    const sender = seed.users[line[0]];
    const addressee: Addressee =
      typeof line[1] === 'string'
        ? { kind: 'stream', streamName: line[1], topic: line[2]! }
        : { kind: 'direct', userIds: line[1].map((name) => seed.users[name].id) };
    const content = typeof line[1] === 'string' ? line[3]! : line[2]!;
    await runAction(services, sender, seed.realm, (ctx) =>
      checkSendMessage({ ...ctx, now: start + i * 3 * 3600 }, { addressee, content, client: 'website', readBySender: true }),
    );
    sent++;
  }
  return sent;
}
