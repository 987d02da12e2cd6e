// A message id the user may not read answers the same on every route, whether the message is in
// another organization, in a private stream the user cannot see, or does not exist at all: the
// answers must not tell which ids exist elsewhere.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EDITABLE_FLAGS } from '../../src/lib/message-flags.js';
import { type ApiResponse, clientFor, expectError, expectSuccess } from '../support/client.js';
import { createOtherRealm, OTHER_HOST, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

type Call = (id: number) => Promise<ApiResponse>;

for (const dialect of testDialects()) {
  describe(`inaccessible message ids [${dialect}]`, () => {
    let ctx: TestContext;
    /** What each kind of inaccessible id is. */
    const ids: Record<string, number> = {};

    before(async () => {
      ctx = await setup(dialect);
      const { owner } = await createOtherRealm(ctx, { email: 'owen@other.test', fullName: 'Owen Other' });
      const owen = clientFor(ctx.app, owner);
      const options = { headers: { host: OTHER_HOST } };
      expectSuccess(await owen.post('/users/me/subscriptions', { subscriptions: [{ name: 'elsewhere' }] }, options));
      ids['another organization\'s stream message'] = expectSuccess(
        await owen.post('/messages', { type: 'stream', to: 'elsewhere', topic: 't', content: 'not yours' }, options),
      ).id;
      ids['another organization\'s direct message'] = expectSuccess(
        await owen.post('/messages', { type: 'direct', to: [owner.id], content: 'note to self' }, options),
      ).id;
      ids['a private stream\'s message'] = expectSuccess(
        await ctx.as('adam').post('/messages', { type: 'stream', to: 'leadership', topic: 't', content: 'secret' }),
      ).id;
      ids['a direct message between others'] = expectSuccess(
        await ctx.as('adam').post('/messages', { type: 'direct', to: [ctx.seed.users.olivia.id], content: 'private' }),
      ).id;
      const last = await ctx.services.db.selectFrom('message').select((eb) => eb.fn.max('id').as('max')).executeTakeFirstOrThrow();
      ids['a missing message'] = Number(last.max) + 1000;
    });
    after(() => ctx.close());

    /** Calls the route with each kind of id and requires the one answer, "Invalid message(s)". */
    async function allRefused(call: Call): Promise<void> {
      for (const [kind, id] of Object.entries(ids)) {
        const res = await call(id);
        assert.deepEqual(
          { status: res.status, body: res.body },
          { status: 400, body: { result: 'error', msg: 'Invalid message(s)', code: 'BAD_REQUEST' } },
          kind,
        );
      }
    }

    for (const flag of EDITABLE_FLAGS) {
      for (const op of ['add', 'remove']) {
        it(`POST /messages/flags ${op} ${flag}`, async () => {
          await allRefused((id) => ctx.as('mona').post('/messages/flags', { messages: [id], op, flag }));
        });
      }
    }

    it('POST /messages/flags with one inaccessible id among readable ones changes nothing', async () => {
      const mine = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 'mix', content: 'hi' })).id;
      expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [mine], op: 'add', flag: 'read' }));
      await allRefused((id) => ctx.as('mona').post('/messages/flags', { messages: [mine, id], op: 'remove', flag: 'read' }));
      const row = await ctx.services.db
        .selectFrom('user_message')
        .select('flags')
        .where('user_id', '=', ctx.seed.users.mona.id)
        .where('message_id', '=', mine)
        .executeTakeFirstOrThrow();
      assert.equal(row.flags & 1, 1);
    });

    it('still skips, without error, unread marks in public streams the user is not subscribed to', async () => {
      const id = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'engineering', topic: 'skip', content: 'x' })).id;
      const body = expectSuccess(await ctx.as('mona').post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' }));
      assert.deepEqual(body, { result: 'success', msg: '', messages: [id] });
    });

    it('GET /messages and POST /messages/flags/narrow anchored at the id', async () => {
      /** The answer with the anchor it echoes left out, which must be the same for every kind. */
      const answers = async (call: Call) => {
        const out = new Map<string, unknown>();
        for (const [kind, id] of Object.entries(ids)) {
          const { status, body } = await call(id);
          out.set(kind, { status, body: { ...body, anchor: body.anchor === id ? 'ANCHOR' : body.anchor } });
        }
        return new Set([...out.values()].map((v) => JSON.stringify(v)));
      };
      const narrow = [{ operator: 'channel', operand: 'general' }];
      const fetched = await answers((id) => ctx.as('mona').get('/messages', { anchor: id, num_before: 0, num_after: 0, narrow }));
      assert.equal(fetched.size, 1, [...fetched].join('\n'));
      const flagged = await answers((id) =>
        ctx.as('mona').post('/messages/flags/narrow', { anchor: id, num_before: 0, num_after: 0, narrow, op: 'add', flag: 'starred' }),
      );
      assert.equal(flagged.size, 1, [...flagged].join('\n'));
    });

    it('GET /messages/{message_id}', async () => {
      await allRefused((id) => ctx.as('mona').get(`/messages/${id}`));
    });

    it('GET /messages/{message_id}/history', async () => {
      await allRefused((id) => ctx.as('mona').get(`/messages/${id}/history`));
    });

    it('PATCH /messages/{message_id}, content and topic', async () => {
      await allRefused((id) => ctx.as('mona').patch(`/messages/${id}`, { content: 'changed' }));
      await allRefused((id) => ctx.as('mona').patch(`/messages/${id}`, { topic: 'moved' }));
      // An owner may move others' messages, but not ones she cannot read.
      for (const [kind, id] of Object.entries(ids)) {
        if (kind.includes('private stream') || kind.includes('between others')) continue;
        expectError(await ctx.as('olivia').patch(`/messages/${id}`, { topic: 'moved', propagate_mode: 'change_all' }), 'Invalid message(s)');
        expectError(await ctx.as('olivia').patch(`/messages/${id}`, { stream_id: ctx.seed.streams.general.id }), 'Invalid message(s)');
      }
    });

    it('DELETE /messages/{message_id}, by a member and by an owner', async () => {
      await allRefused((id) => ctx.as('mona').delete(`/messages/${id}`));
      for (const [kind, id] of Object.entries(ids)) {
        if (kind.includes('private stream') || kind.includes('between others')) continue;
        expectError(await ctx.as('olivia').delete(`/messages/${id}`), 'Invalid message(s)');
      }
    });

    it('POST and DELETE /messages/{message_id}/reactions', async () => {
      await allRefused((id) => ctx.as('mona').post(`/messages/${id}/reactions`, { emoji_name: 'smile' }));
      await allRefused((id) => ctx.as('mona').delete(`/messages/${id}/reactions`, { emoji_name: 'smile' }));
    });
  });
}
