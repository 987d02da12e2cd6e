import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { seedDevMessages } from '../../src/dev-seed.js';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`the dev organization [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('has the documented accounts, roles and streams', async () => {
      const users = Object.values(ctx.seed.users).map((u) => [u.delivery_email, u.full_name, u.role, u.is_bot]);
      assert.deepEqual(users, [
        ['olivia@confab.test', 'Olivia Owner', 100, 0],
        ['adam@confab.test', 'Adam Admin', 200, 0],
        ['maya@confab.test', 'Maya Moderator', 300, 0],
        ['mark@confab.test', 'Mark Member', 400, 0],
        ['mona@confab.test', 'Mona Member', 400, 0],
        ['milo@confab.test', 'Milo Member', 400, 0],
        ['gus@confab.test', 'Gus Guest', 600, 0],
        ['welcome-bot@confab.test', 'Welcome Bot', 400, 1],
      ]);
      assert.equal(ctx.seed.users.welcomeBot.bot_owner_id, ctx.seed.users.olivia.id);
      const { leadership, general } = ctx.seed.streams;
      assert.equal(leadership.invite_only, 1);
      assert.equal(leadership.history_public_to_subscribers, 1);
      assert.equal(general.invite_only, 0);
    });

    it('seeds a conversation across topics, one-on-one and group direct messages', async () => {
      const sent = await seedDevMessages(ctx.services, ctx.seed);
      assert.ok(sent >= 30, `only ${sent} messages`);
      const recipients = await ctx.services.db
        .selectFrom('message')
        .innerJoin('recipient', 'recipient.id', 'message.recipient_id')
        .select(['recipient.type', 'message.subject'])
        .execute();
      const ofType = (type: number) => recipients.filter((r) => r.type === type);
      assert.ok(ofType(2).length >= 20);
      assert.ok(ofType(1).length >= 5);
      assert.ok(ofType(3).length >= 3);
      assert.ok(new Set(ofType(2).map((r) => r.subject)).size >= 8);
      // The guest reads the direct messages sent to him.
      const gus = expectSuccess(await ctx.as('gus').get('/users/me'));
      assert.equal(gus.email, 'gus@confab.test');
    });
  });
}
