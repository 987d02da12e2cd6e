import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /scheduled_messages [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    beforeEach(async () => {
      await ctx.services.db.deleteFrom('scheduled_message').execute();
      ctx.clearEvents();
    });

    const later = () => Math.floor(ctx.clock.now()) + 3600;
    const schedule = (params: Record<string, unknown>, headers?: Record<string, string>) =>
      ctx.as('mark').post('/scheduled_messages', { scheduled_delivery_timestamp: later(), ...params }, headers ? { headers } : undefined);
    const list = async () => expectSuccess(await ctx.as('mark').get('/scheduled_messages')).scheduled_messages as Array<Record<string, unknown>>;

    it('schedules a channel message, renders it, and tells only the sender', async () => {
      const { mark } = ctx.seed.users;
      const general = ctx.seed.streams.general.id;
      const when = later();
      const body = expectSuccess(await schedule({ type: 'channel', to: String(general), topic: 'plans', content: 'See you **soon**', scheduled_delivery_timestamp: when }));
      const id = body.scheduled_message_id as number;
      assert.equal(typeof id, 'number');
      const expected = {
        scheduled_message_id: id,
        content: 'See you **soon**',
        rendered_content: '<p>See you <strong>soon</strong></p>',
        scheduled_delivery_timestamp: when,
        failed: false,
        type: 'stream',
        to: general,
        topic: 'plans',
      };
      assert.deepEqual(await list(), [expected]);
      assert.deepEqual(ctx.events, [{ event: { type: 'scheduled_messages', op: 'add', scheduled_messages: [expected] }, users: [mark.id] }]);
      assert.deepEqual(expectSuccess(await ctx.as('mona').get('/scheduled_messages')).scheduled_messages, []);
    });

    it('schedules direct messages to one person, to a group, and to oneself', async () => {
      const { mark, mona, milo } = ctx.seed.users;
      expectSuccess(await schedule({ type: 'direct', to: JSON.stringify([mona.id]), content: 'one' }));
      expectSuccess(await schedule({ type: 'private', to: JSON.stringify([milo.id, mona.id, mona.id]), content: 'group' }));
      expectSuccess(await schedule({ type: 'direct', to: JSON.stringify([mark.id]), content: 'self' }));
      const listed = await list();
      assert.deepEqual(
        listed.map((m) => [m.type, m.to, m.content, 'topic' in m]),
        [
          ['private', [mona.id], 'one', false],
          ['private', [mona.id, milo.id].sort((a, b) => a - b), 'group', false],
          ['private', [mark.id], 'self', false],
        ],
      );
    });

    it('lists the soonest first', async () => {
      const general = String(ctx.seed.streams.general.id);
      expectSuccess(await schedule({ type: 'stream', to: general, topic: 't', content: 'late', scheduled_delivery_timestamp: later() + 100 }));
      expectSuccess(await schedule({ type: 'stream', to: general, topic: 't', content: 'early', scheduled_delivery_timestamp: later() + 10 }));
      assert.deepEqual((await list()).map((m) => m.content), ['early', 'late']);
    });

    it('refuses a time that is not in the future', async () => {
      const general = String(ctx.seed.streams.general.id);
      const now = Math.floor(ctx.clock.now());
      expectError(await schedule({ type: 'stream', to: general, topic: 't', content: 'x', scheduled_delivery_timestamp: now }), 'Scheduled delivery time must be in the future.');
      expectError(await schedule({ type: 'stream', to: general, topic: 't', content: 'x', scheduled_delivery_timestamp: '1.5' }), 'scheduled_delivery_timestamp is not an integer');
      assert.deepEqual(await list(), []);
      assert.deepEqual(ctx.events, []);
    });

    it('reads `to` as the reference does for each type', async () => {
      expectError(await schedule({ type: 'stream', to: '[1]', topic: 't', content: 'x' }), 'Invalid data type for channel ID');
      expectError(await schedule({ type: 'stream', to: 'general', topic: 't', content: 'x' }), 'Invalid data type for channel ID');
      expectError(await schedule({ type: 'direct', to: '9', content: 'x' }), 'Invalid data type for recipients');
      expectError(await schedule({ type: 'direct', to: '["mona@confab.test"]', content: 'x' }), 'Recipient list may only contain user IDs');
      expectError(await schedule({ type: 'broadcast', to: '1', content: 'x' }), "Invalid type");
    });

    it('makes the checks a send makes', async () => {
      const { leadership, general } = ctx.seed.streams;
      expectError(await schedule({ type: 'stream', to: '99999', topic: 't', content: 'x' }), "Channel with ID '99999' does not exist", 'STREAM_DOES_NOT_EXIST');
      expectError(await schedule({ type: 'stream', to: String(leadership.id), topic: 't', content: 'x' }), "Not authorized to send to channel 'leadership'");
      expectError(await schedule({ type: 'stream', to: String(general.id), content: 'x' }), 'Missing topic');
      expectError(await schedule({ type: 'stream', to: String(general.id), topic: 't', content: '  ' }), 'Message must not be empty');
      expectError(await schedule({ type: 'direct', to: '[99999]', content: 'x' }), 'Invalid user ID 99999');
      assert.deepEqual(await list(), []);
    });

    it('stores whether the message will be read by its sender', async () => {
      const { mona, mark } = ctx.seed.users;
      const readFlag = async (id: unknown) =>
        (await ctx.services.db.selectFrom('scheduled_message').select('read_by_sender').where('id', '=', id as number).executeTakeFirstOrThrow()).read_by_sender;
      const api = expectSuccess(await schedule({ type: 'direct', to: `[${mona.id}]`, content: 'x' })).scheduled_message_id;
      const app = expectSuccess(await schedule({ type: 'direct', to: `[${mona.id}]`, content: 'x' }, { 'user-agent': 'ZulipMobile/27.1' })).scheduled_message_id;
      const self = expectSuccess(await schedule({ type: 'direct', to: `[${mark.id}]`, content: 'x' }, { 'user-agent': 'ZulipMobile/27.1' })).scheduled_message_id;
      const asked = expectSuccess(await schedule({ type: 'direct', to: `[${mona.id}]`, content: 'x', read_by_sender: true })).scheduled_message_id;
      assert.deepEqual([await readFlag(api), await readFlag(app), await readFlag(self), await readFlag(asked)], [0, 1, 0, 1]);
    });
  });
}
