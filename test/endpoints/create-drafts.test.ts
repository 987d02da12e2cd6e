import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /drafts [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());
    beforeEach(async () => {
      await ctx.services.db.deleteFrom('draft').execute();
      ctx.clearEvents();
    });

    const create = (who: DevUserName, drafts: unknown) => ctx.as(who).post('/drafts', { drafts });
    const listed = async (who: DevUserName) => expectSuccess(await ctx.as(who).get('/drafts')).drafts as Array<Record<string, unknown>>;
    const now = () => Math.floor(ctx.clock.now());

    it('stores stream, direct, group and unaddressed drafts and tells the user', async () => {
      const { mark, mona, milo } = ctx.seed.users;
      const general = ctx.seed.streams.general.id;
      const body = expectSuccess(
        await create('mark', [
          { type: 'stream', to: [general], topic: 'plans', content: 'Stream draft', timestamp: 1_700_000_000 },
          { type: 'private', to: [mona.id], topic: 'ignored', content: 'To Mona', timestamp: 1_700_000_001 },
          { type: 'private', to: [milo.id, mona.id, mark.id], topic: '', content: 'To both', timestamp: 1_700_000_002 },
          { type: '', to: [], topic: '', content: 'Nowhere yet', timestamp: 1_700_000_003 },
        ]),
      );
      const ids = body.ids as number[];
      assert.equal(ids.length, 4);
      const expected = [
        { id: ids[0], type: 'stream', to: [general], topic: 'plans', content: 'Stream draft', timestamp: 1_700_000_000 },
        { id: ids[1], type: 'private', to: [mona.id], topic: '', content: 'To Mona', timestamp: 1_700_000_001 },
        { id: ids[2], type: 'private', to: [mona.id, milo.id].sort((a, b) => a - b), topic: '', content: 'To both', timestamp: 1_700_000_002 },
        { id: ids[3], type: '', to: [], topic: '', content: 'Nowhere yet', timestamp: 1_700_000_003 },
      ];
      assert.deepEqual(await listed('mark'), expected);
      assert.deepEqual(ctx.events, [{ event: { type: 'drafts', op: 'add', drafts: expected }, users: [mark.id] }]);
      assert.deepEqual(await listed('mona'), []);
    });

    it('fills in a missing timestamp, keeps whole seconds of a given one, and accepts null', async () => {
      const ids = expectSuccess(
        await create('mark', [
          { type: '', to: [], topic: '', content: 'a' },
          { type: '', to: [], topic: '', content: 'b', timestamp: 1_600_000_000.75 },
          { type: '', to: [], topic: '', content: 'c', timestamp: null },
        ]),
      ).ids as number[];
      const byId = new Map((await listed('mark')).map((d) => [d.id, d.timestamp]));
      assert.deepEqual([byId.get(ids[0]), byId.get(ids[1]), byId.get(ids[2])], [now(), 1_600_000_000, now()]);
    });

    it('addresses a direct draft to no one as an unaddressed draft, and to oneself by id', async () => {
      const { mark } = ctx.seed.users;
      expectSuccess(
        await create('mark', [
          { type: 'private', to: [], topic: 'x', content: 'nobody', timestamp: 1 },
          { type: 'private', to: [mark.id], topic: '', content: 'note to self', timestamp: 2 },
        ]),
      );
      const drafts = await listed('mark');
      assert.deepEqual(drafts.map((d) => [d.type, d.to, d.topic]), [['', [], ''], ['private', [mark.id], '']]);
    });

    it('normalizes content and truncates a long topic', async () => {
      const general = ctx.seed.streams.general.id;
      expectSuccess(await create('mark', [{ type: 'stream', to: [general], topic: 'x'.repeat(70), content: '\n\nhello  \n ', timestamp: 5 }]));
      const [draft] = await listed('mark');
      assert.equal(draft!.content, 'hello');
      assert.equal(draft!.topic, `${'x'.repeat(57)}...`);
    });

    it('creates nothing when any draft is refused', async () => {
      const general = ctx.seed.streams.general.id;
      expectError(
        await create('mark', [
          { type: 'stream', to: [general], topic: 'ok', content: 'fine' },
          { type: 'stream', to: [], topic: 'bad', content: 'no stream' },
        ]),
        'Must specify exactly 1 channel ID for channel messages',
      );
      assert.deepEqual(await listed('mark'), []);
      assert.deepEqual(ctx.events, []);
    });

    it('refuses stream drafts without exactly one stream, and streams the user cannot reach', async () => {
      const { general, engineering, leadership } = ctx.seed.streams;
      const exactlyOne = 'Must specify exactly 1 channel ID for channel messages';
      expectError(await create('mark', [{ type: 'stream', to: [], topic: 't', content: 'c' }]), exactlyOne);
      expectError(await create('mark', [{ type: 'stream', to: [general.id, engineering.id], topic: 't', content: 'c' }]), exactlyOne);
      expectError(await create('mark', [{ type: 'stream', to: [99999], topic: 't', content: 'c' }]), 'Invalid channel ID');
      expectError(await create('mark', [{ type: 'stream', to: [leadership.id], topic: 't', content: 'c' }]), 'Invalid channel ID');
      expectError(await create('gus', [{ type: 'stream', to: [general.id], topic: 't', content: 'c' }]), 'Invalid channel ID');
      expectSuccess(await create('adam', [{ type: 'stream', to: [leadership.id], topic: 't', content: 'c' }]));
    });

    it('refuses direct drafts to unknown or deactivated users', async () => {
      const { mona, milo } = ctx.seed.users;
      expectError(await create('mark', [{ type: 'private', to: [mona.id, 99999], topic: '', content: 'c' }]), 'Invalid user ID 99999');
      expectError(await create('mark', [{ type: 'private', to: [2 ** 40], topic: '', content: 'c' }]), `Invalid user ID ${2 ** 40}`);
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', milo.id).execute();
      try {
        expectError(await create('mark', [{ type: 'private', to: [milo.id], topic: '', content: 'c' }]), `'${milo.email}' is no longer using Zulip.`);
      } finally {
        await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', milo.id).execute();
      }
    });

    it('refuses null bytes, blank content and negative timestamps', async () => {
      const general = ctx.seed.streams.general.id;
      expectError(await create('mark', [{ type: 'stream', to: [general], topic: 'a\u0000b', content: 'c' }]), 'Topic must not contain null bytes');
      expectError(await create('mark', [{ type: '', to: [], topic: '', content: 'a\u0000b' }]), 'Message must not contain null bytes');
      expectError(await create('mark', [{ type: '', to: [], topic: '', content: '   ' }]), 'drafts[0]["content"] cannot be blank');
      expectError(await create('mark', [{ type: '', to: [], topic: '', content: 'c', timestamp: -1 }]), 'Timestamp must not be negative.');
      expectError(await create('mark', [{ type: '', to: [], topic: '', content: 'c', timestamp: 1e300 }]), 'drafts[0]["timestamp"] is too large');
    });

    it('checks the shape of every draft', async () => {
      expectError(await create('mark', [{ type: 'channel', to: [], topic: '', content: 'c' }]), 'Invalid drafts[0]["type"]');
      expectError(await create('mark', [{ type: '', to: ['x'], topic: '', content: 'c' }]), 'drafts[0]["to"][0] is not an integer');
      expectError(await create('mark', [{ type: '', to: [], content: 'c' }]), 'drafts[0]["topic"] is not a string');
      expectError(await create('mark', [{ type: '', to: [], topic: '', content: 'c', id: 4 }]), 'Argument "id" at drafts[0] is unexpected');
      expectError(await create('mark', { type: '' }), 'drafts is not a list');
      expectError(await create('mark', 'nope'), 'drafts is not valid JSON');
      expectError(await ctx.as('mark').post('/drafts', {}), "Missing 'drafts' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('refuses users who turned draft synchronization off', async () => {
      const { mona } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ settings: '{"enable_drafts_synchronization":false}' }).where('id', '=', mona.id).execute();
      expectError(await create('mona', [{ type: '', to: [], topic: '', content: 'c' }]), 'User has disabled synchronizing drafts.');
      assert.deepEqual(ctx.events, []);
    });
  });
}
