import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { bulkAddSubscriptions } from '../../src/actions/subscriptions.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import type { UserRow } from '../../src/db/schema.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const person = (user: UserRow) => ({ user_id: user.id, email: user.email });
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

for (const dialect of testDialects()) {
  describe(`POST /typing [${dialect}]`, () => {
    let ctx: TestContext;
    let retired: UserRow;
    before(async () => {
      ctx = await setup(dialect);
      retired = await runSystemAction(ctx.services, (sys) =>
        doCreateUser(sys, ctx.seed.realm, { email: 'retired@confab.test', fullName: 'Retired Person' }),
      );
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', retired.id).execute();
    });
    after(() => ctx.close());

    const typing = (name: Parameters<TestContext['as']>[0], params: Record<string, unknown>) => {
      ctx.clearEvents();
      return ctx.as(name).post('/typing', params);
    };
    const setSettings = (user: UserRow, settings: Record<string, unknown>) =>
      ctx.services.db.updateTable('user_profile').set({ settings: JSON.stringify(settings) }).where('id', '=', user.id).execute();

    describe('direct messages', () => {
      it('tells the recipient and the sender, listing both (sender last) by id and API email', async () => {
        const { mark, mona } = ctx.seed.users;
        expectSuccess(await typing('mark', { op: 'start', to: [mona.id] }));
        assert.equal(ctx.events.length, 1);
        assert.deepEqual(ctx.events[0]!.event, {
          type: 'typing',
          op: 'start',
          message_type: 'direct',
          sender: person(mark),
          recipients: [person(mona), person(mark)],
        });
        assert.deepEqual(sorted(ctx.events[0]!.users), sorted([mona.id, mark.id]));
      });

      it('covers group conversations, op stop, the explicit type and the legacy "private" type', async () => {
        const { mark, mona, milo } = ctx.seed.users;
        for (const type of ['direct', 'private']) {
          expectSuccess(await typing('milo', { type, op: 'stop', to: [mark.id, mona.id] }));
          assert.equal(ctx.events.length, 1);
          assert.deepEqual(ctx.events[0]!.event, {
            type: 'typing',
            op: 'stop',
            message_type: 'direct',
            sender: person(milo),
            recipients: [person(mark), person(mona), person(milo)],
          });
          assert.deepEqual(sorted(ctx.events[0]!.users), sorted([mark.id, mona.id, milo.id]));
        }
      });

      it('keeps the order the client sent, drops repeated ids and does not repeat a listed sender', async () => {
        const { mark, mona, milo } = ctx.seed.users;
        expectSuccess(await typing('mark', { op: 'start', to: [milo.id, mark.id, mona.id, milo.id] }));
        assert.deepEqual(ctx.events[0]!.event.recipients, [person(milo), person(mark), person(mona)]);
        assert.deepEqual(sorted(ctx.events[0]!.users), sorted([mark.id, mona.id, milo.id]));
      });

      it('a note to self goes to the sender alone', async () => {
        const { mark } = ctx.seed.users;
        expectSuccess(await typing('mark', { op: 'start', to: [mark.id] }));
        assert.deepEqual(ctx.events, [
          {
            event: { type: 'typing', op: 'start', message_type: 'direct', sender: person(mark), recipients: [person(mark)] },
            users: [mark.id],
          },
        ]);
      });

      it('lists a deactivated recipient but does not notify them', async () => {
        const { mark } = ctx.seed.users;
        expectSuccess(await typing('mark', { op: 'start', to: [retired.id] }));
        assert.deepEqual(ctx.events[0]!.event.recipients, [person(retired), person(mark)]);
        assert.deepEqual(ctx.events[0]!.users, [mark.id]);
      });

      it('ignores stream_id and topic', async () => {
        const { mona } = ctx.seed.users;
        expectSuccess(await typing('mark', { op: 'start', to: [mona.id], stream_id: 999999, topic: 'x' }));
        assert.equal(ctx.events[0]!.event.message_type, 'direct');
      });
    });

    describe('streams', () => {
      it("tells the stream's subscribers, the sender among them", async () => {
        const { olivia, adam, mark, milo } = ctx.seed.users;
        const { engineering } = ctx.seed.streams;
        expectSuccess(await typing('mark', { type: 'stream', op: 'start', stream_id: engineering.id, topic: 'builds' }));
        assert.equal(ctx.events.length, 1);
        assert.deepEqual(ctx.events[0]!.event, {
          type: 'typing',
          op: 'start',
          message_type: 'stream',
          sender: person(mark),
          stream_id: engineering.id,
          topic: 'builds',
        });
        assert.deepEqual(sorted(ctx.events[0]!.users), sorted([olivia.id, adam.id, mark.id, milo.id]));
      });

      it('accepts the "channel" type, and a sender who is not subscribed but may see the stream', async () => {
        const { maya, mona, milo } = ctx.seed.users;
        const { design, engineering } = ctx.seed.streams;
        expectSuccess(await typing('olivia', { type: 'channel', op: 'stop', stream_id: design.id, topic: 'icons' }));
        assert.deepEqual(ctx.events[0]!.event.op, 'stop');
        assert.deepEqual(ctx.events[0]!.event.message_type, 'stream');
        assert.deepEqual(sorted(ctx.events[0]!.users), sorted([maya.id, mona.id, milo.id]));
        // `to` is ignored once stream_id names the stream.
        expectSuccess(await typing('olivia', { type: 'stream', op: 'start', stream_id: design.id, to: [engineering.id, 1], topic: 't' }));
        assert.equal(ctx.events[0]!.event.stream_id, design.id);
      });

      it('understands the older one-element `to` list in place of stream_id', async () => {
        const { engineering } = ctx.seed.streams;
        expectSuccess(await typing('mark', { type: 'stream', op: 'start', to: [engineering.id], topic: 'builds' }));
        assert.equal(ctx.events[0]!.event.stream_id, engineering.id);
      });

      it('keeps the topic as sent, the empty one included', async () => {
        const { engineering } = ctx.seed.streams;
        expectSuccess(await typing('mark', { type: 'stream', op: 'start', stream_id: engineering.id, topic: '' }));
        assert.equal(ctx.events[0]!.event.topic, '');
      });

      it('a private stream reaches its subscribers', async () => {
        const { olivia, adam } = ctx.seed.users;
        const { leadership } = ctx.seed.streams;
        expectSuccess(await typing('adam', { type: 'stream', op: 'start', stream_id: leadership.id, topic: 'hiring' }));
        assert.deepEqual(sorted(ctx.events[0]!.users), sorted([olivia.id, adam.id]));
      });
    });

    describe('errors', () => {
      const cases: Array<[string, Parameters<TestContext['as']>[0], () => Record<string, unknown>, string, string?]> = [
        ['op missing', 'mark', () => ({ to: [ctx.seed.users.mona.id] }), "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING'],
        ['unknown op', 'mark', () => ({ op: 'pause', to: [ctx.seed.users.mona.id] }), 'Invalid op'],
        ['unknown type', 'mark', () => ({ type: 'huddle', op: 'start', to: [ctx.seed.users.mona.id] }), 'Invalid type'],
        ['to missing', 'mark', () => ({ op: 'start' }), "Missing 'to' argument"],
        ['empty to', 'mark', () => ({ op: 'start', to: [] }), "Empty 'to' list"],
        ['to not JSON', 'mark', () => ({ op: 'start', to: 'mona@confab.test' }), 'to is not valid JSON'],
        ['to not a list', 'mark', () => ({ op: 'start', to: ctx.seed.users.mona.id }), 'to is not a list'],
        ['to with an email', 'mark', () => ({ op: 'start', to: ['mona@confab.test'] }), 'to[0] is not an integer'],
        ['unknown user', 'mark', () => ({ op: 'start', to: [ctx.seed.users.mona.id, 999999] }), 'Invalid user ID 999999'],
        ['id beyond any column', 'mark', () => ({ op: 'start', to: [2 ** 40] }), `Invalid user ID ${2 ** 40}`],
        ['stream_id missing', 'mark', () => ({ type: 'stream', op: 'start', topic: 'builds' }), 'Missing channel ID'],
        ['topic missing', 'mark', () => ({ type: 'stream', op: 'start', stream_id: ctx.seed.streams.engineering.id }), 'Missing topic'],
        ['several streams', 'mark', () => ({ type: 'stream', op: 'start', to: [1, 2], topic: 'x' }), 'Cannot send to multiple channels'],
        ['stream_id not an integer', 'mark', () => ({ type: 'stream', op: 'start', stream_id: '"general"', topic: 'x' }), 'stream_id is not an integer'],
        ['unknown stream', 'mark', () => ({ type: 'stream', op: 'start', stream_id: 999999, topic: 'x' }), 'Invalid channel ID'],
        ['private stream of others', 'mark', () => ({ type: 'stream', op: 'start', stream_id: ctx.seed.streams.leadership.id, topic: 'x' }), 'Invalid channel ID'],
        ['guest, unsubscribed public stream', 'gus', () => ({ type: 'stream', op: 'start', stream_id: ctx.seed.streams.general.id, topic: 'x' }), 'Invalid channel ID'],
      ];
      for (const [label, who, params, msg, code] of cases) {
        it(`${label}: ${msg}`, async () => {
          expectError(await typing(who, params()), msg, code);
          assert.deepEqual(ctx.events, []);
        });
      }
    });

    describe("the sender's settings", () => {
      after(() => setSettings(ctx.seed.users.mark, {}));

      it('with direct typing notifications off, direct typing is refused and stream typing still goes out', async () => {
        const { mark, mona } = ctx.seed.users;
        await setSettings(mark, { send_private_typing_notifications: false });
        expectError(await typing('mark', { op: 'start', to: [mona.id] }), 'User has disabled typing notifications for direct messages');
        assert.deepEqual(ctx.events, []);
        expectSuccess(await typing('mark', { type: 'stream', op: 'start', stream_id: ctx.seed.streams.engineering.id, topic: 'x' }));
        assert.equal(ctx.events.length, 1);
        // The request is still checked.
        expectError(await typing('mark', { op: 'start', to: [999999] }), 'Invalid user ID 999999');
      });

      it('with stream typing notifications off, stream typing is refused and direct typing still goes out', async () => {
        const { mark, mona } = ctx.seed.users;
        await setSettings(mark, { send_stream_typing_notifications: false });
        expectError(
          await typing('mark', { type: 'stream', op: 'start', stream_id: ctx.seed.streams.engineering.id, topic: 'x' }),
          'User has disabled typing notifications for channel messages',
        );
        assert.deepEqual(ctx.events, []);
        expectSuccess(await typing('mark', { op: 'start', to: [mona.id] }));
        assert.equal(ctx.events.length, 1);
        expectError(await typing('mark', { type: 'stream', op: 'start', stream_id: 999999, topic: 'x' }), 'Invalid channel ID');
      });
    });

    describe('large streams', () => {
      it('notifies a stream of 100 subscribers, and nobody once it has 101', async () => {
        const { realm, streams } = ctx.seed;
        const { design } = streams;
        // design starts with maya, mona and milo.
        const extra = await runSystemAction(ctx.services, async (sys) => {
          const made: UserRow[] = [];
          for (let i = 0; i < 98; i++) {
            made.push(await doCreateUser(sys, realm, { email: `crowd${i}@confab.test`, fullName: `Crowd ${i}`, subscribeToDefaults: false }));
          }
          await bulkAddSubscriptions(sys, realm, [design], made.slice(0, 97));
          return made;
        });
        const params = { type: 'stream', op: 'start', stream_id: design.id, topic: 'icons' };
        expectSuccess(await typing('mona', params));
        assert.equal(ctx.events.length, 1);
        assert.equal(ctx.events[0]!.users.length, 100);

        await runSystemAction(ctx.services, (sys) => bulkAddSubscriptions(sys, realm, [design], [extra[97]!]));
        expectSuccess(await typing('mona', params));
        assert.deepEqual(ctx.events, []);
      });
    });
  });
}
