import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { clampRange } from '../../src/actions/message-flags-narrow.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { eventsOfType } from '../support/flags.js';

describe('clampRange', () => {
  it('keeps small ranges and bounds large ones to 5000 messages with the anchor', () => {
    assert.deepEqual(clampRange(100, 200, true), { numBefore: 100, numAfter: 200 });
    assert.deepEqual(clampRange(10_000, 0, true), { numBefore: 4999, numAfter: 0 });
    assert.deepEqual(clampRange(0, 10_000, false), { numBefore: 0, numAfter: 5000 });
    assert.deepEqual(clampRange(5000, 5000, true), { numBefore: 2499, numAfter: 2500 });
    assert.deepEqual(clampRange(4000, 300, true), { numBefore: 4000, numAfter: 300 });
    assert.deepEqual(clampRange(300, 4800, true), { numBefore: 300, numAfter: 4699 });
  });
});

for (const dialect of testDialects()) {
  describe(`POST /messages/flags/narrow [${dialect}]`, () => {
    let ctx: TestContext;
    let streamId: number;
    let ids: number[];
    before(async () => {
      ctx = await setup(dialect);
      // A stream of Mark's and Milo's with five messages; Mona may read it but is not subscribed.
      const { mark, milo } = ctx.seed.users;
      expectSuccess(await ctx.as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: 'ranges' }], principals: [mark.id, milo.id] }));
      streamId = (await ctx.services.db.selectFrom('stream').select('id').where('name', '=', 'ranges').executeTakeFirstOrThrow()).id;
      ids = [];
      for (let i = 0; i < 5; i++) {
        ids.push(expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'ranges', topic: 'r', content: `m${i}` })).id);
      }
    });
    after(() => ctx.close());

    const narrow = [{ operator: 'stream', operand: 'ranges' }];
    const update = (user: DevUserName, params: Record<string, unknown>) =>
      ctx.as(user).post('/messages/flags/narrow', { narrow, num_before: 0, num_after: 0, ...params });
    const flagsOf = async (user: DevUserName) => {
      const rows = await ctx.services.db
        .selectFrom('user_message')
        .select(['message_id', 'flags'])
        .where('user_id', '=', ctx.seed.users[user].id)
        .where('message_id', 'in', ids)
        .orderBy('message_id')
        .execute();
      return new Map(rows.map((r) => [r.message_id, r.flags]));
    };
    const unread = async (user: DevUserName) =>
      [...(await flagsOf(user))].filter(([, flags]) => (flags & FLAG_BITS.read) === 0).map(([id]) => id);
    const flagEvents = () => eventsOfType(ctx, 'update_message_flags');

    it('marks a whole narrow read from the oldest message and reports the range', async () => {
      ctx.clearEvents();
      const body = expectSuccess(await update('milo', { anchor: 'oldest', num_after: 100, op: 'add', flag: 'read' }));
      assert.deepEqual(body, {
        result: 'success',
        msg: '',
        processed_count: 5,
        updated_count: 5,
        first_processed_id: ids[0],
        last_processed_id: ids[4],
        found_oldest: true,
        found_newest: true,
      });
      assert.deepEqual(await unread('milo'), []);
      assert.deepEqual(flagEvents(), [{ type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: ids, all: false }]);
      // Again: nothing changes.
      const again = expectSuccess(await update('milo', { anchor: 'newest', num_before: 100, op: 'add', flag: 'read' }));
      assert.equal(again.processed_count, 5);
      assert.equal(again.updated_count, 0);
    });

    it('marks unread around a message id, with the details for unread counts', async () => {
      ctx.clearEvents();
      const body = expectSuccess(await update('milo', { anchor: ids[2], num_before: 1, num_after: 1, op: 'remove', flag: 'read' }));
      assert.deepEqual(body, {
        result: 'success',
        msg: '',
        processed_count: 3,
        updated_count: 3,
        first_processed_id: ids[1],
        last_processed_id: ids[3],
        found_oldest: false,
        found_newest: false,
        ignored_because_not_subscribed_channels: [],
      });
      assert.deepEqual(await unread('milo'), ids.slice(1, 4));
      const [event] = flagEvents();
      assert.deepEqual(event!.messages, ids.slice(1, 4));
      const details = event!.message_details as Record<string, unknown>;
      assert.deepEqual(details[ids[1]!], { type: 'stream', stream_id: streamId, topic: 'r', unmuted_stream_msg: true });
    });

    it('first_unread starts at the oldest unread message of the narrow', async () => {
      const body = expectSuccess(await update('milo', { anchor: 'first_unread', num_after: 1, op: 'add', flag: 'read' }));
      assert.deepEqual([body.first_processed_id, body.last_processed_id, body.processed_count, body.updated_count], [ids[1], ids[2], 2, 2]);
      assert.deepEqual(await unread('milo'), ids.slice(3, 4));
    });

    it('first_unread with nothing unread is the newest message: an empty range after it', async () => {
      expectSuccess(await update('milo', { anchor: 'oldest', num_after: 10, op: 'add', flag: 'read' }));
      const body = expectSuccess(await update('milo', { anchor: 'first_unread', num_after: 10, op: 'add', flag: 'read' }));
      assert.deepEqual(body, {
        result: 'success',
        msg: '',
        processed_count: 0,
        updated_count: 0,
        first_processed_id: null,
        last_processed_id: null,
        found_oldest: false,
        found_newest: true,
      });
      const before = expectSuccess(await update('milo', { anchor: 'first_unread', num_before: 2, op: 'add', flag: 'starred' }));
      assert.deepEqual([before.first_processed_id, before.last_processed_id], [ids[3], ids[4]]);
      expectSuccess(await update('milo', { anchor: 'oldest', num_after: 10, op: 'remove', flag: 'starred' }));
    });

    it('leaves the anchor out when asked, at an end of the range', async () => {
      const body = expectSuccess(await update('milo', { anchor: ids[2], include_anchor: false, num_before: 5, op: 'add', flag: 'starred' }));
      assert.deepEqual([body.processed_count, body.first_processed_id, body.last_processed_id, body.found_oldest], [2, ids[0], ids[1], true]);
      const flags = await flagsOf('milo');
      assert.deepEqual(ids.map((id) => (flags.get(id)! & FLAG_BITS.starred) !== 0), [true, true, false, false, false]);
    });

    it('stars stream history never received on new historical rows', async () => {
      assert.equal((await flagsOf('mona')).size, 0);
      const body = expectSuccess(await update('mona', { anchor: 'newest', num_before: 2, op: 'add', flag: 'starred' }));
      assert.deepEqual([body.processed_count, body.updated_count], [2, 2]);
      const flags = await flagsOf('mona');
      assert.deepEqual([...flags.values()], [1, 1].map(() => FLAG_BITS.read | FLAG_BITS.historical | FLAG_BITS.starred));
    });

    it('skips marking unread in a stream the user is not subscribed to, and names it', async () => {
      ctx.clearEvents();
      const body = expectSuccess(await update('mona', { anchor: 'oldest', num_after: 10, op: 'remove', flag: 'read' }));
      assert.deepEqual([body.processed_count, body.updated_count], [5, 0]);
      assert.deepEqual(body.ignored_because_not_subscribed_channels, [streamId]);
      assert.deepEqual(flagEvents()[0]!.messages, []);
    });

    it('refuses bad anchors, ranges, flags, operations and narrows with the reference texts', async () => {
      const base = { anchor: 'newest', num_before: 1, op: 'add', flag: 'read' };
      const milo = ctx.as('milo');
      const post = (params: Record<string, unknown>) => milo.post('/messages/flags/narrow', params);
      expectError(await update('milo', { ...base, anchor: undefined }), "Missing 'anchor' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await update('milo', { ...base, anchor: 'middle' }), 'Invalid anchor');
      expectError(await update('milo', { ...base, num_after: 1, anchor: ids[2], include_anchor: false }), 'The anchor can only be excluded at an end of the range');
      expectError(await update('milo', { ...base, flag: 'bogus' }), "Invalid flag: 'bogus'");
      expectError(await update('milo', { ...base, flag: 'mentioned' }), "Flag not editable: 'mentioned'");
      expectError(await update('milo', { ...base, op: 'toggle' }), "Invalid message flag operation: 'toggle'");
      expectError(await update('milo', { ...base, num_before: -1 }), 'num_before is too small');
      expectError(await update('milo', { ...base, narrow: [{ operator: 'stream', operand: 'nope' }] }), 'Invalid narrow operator: unknown channel nope', 'BAD_NARROW');
      expectError(await post({ anchor: 'newest', num_before: 1, num_after: 0, op: 'add', flag: 'read' }), "Missing 'narrow' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await post({ anchor: 'newest', num_before: 1, narrow: [], op: 'add', flag: 'read' }), "Missing 'num_after' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await post({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [], flag: 'read' }), "Missing 'op' argument", 'REQUEST_VARIABLE_MISSING');
    });

    it('a null or empty narrow is every message of the user', async () => {
      const body = expectSuccess(await update('milo', { narrow: null, anchor: 'newest', num_before: 1, op: 'add', flag: 'read' }));
      assert.equal(body.last_processed_id, ids[4]);
    });
  });
}
