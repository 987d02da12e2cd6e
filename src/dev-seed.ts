// The demo organization dev mode starts with, and the fixture every test builds on.
import type { RealmRow, StreamRow, UserRow } from './db/schema.js';
import { runSystemAction } from './actions/context.js';
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
