import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`POST /messages [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const rowsOf = (messageId: number) =>
      ctx.services.db.selectFrom('user_message').selectAll().where('message_id', '=', messageId).orderBy('user_id').execute();
    const messageRow = (id: number) => ctx.services.db.selectFrom('message').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

    it('sends to a stream by name and gives every subscriber a row', async () => {
      const body = expectSuccess(
        await ctx.as('mark').post('/messages', { type: 'stream', to: 'engineering', topic: 'builds', content: 'Green again.' }),
      );
      assert.equal(typeof body.id, 'number');
      const row = await messageRow(body.id);
      assert.equal(row.subject, 'builds');
      assert.equal(row.rendered_content, '<p>Green again.</p>');
      assert.equal(row.sending_client, 'Unspecified');
      const { olivia, adam, mark, milo } = ctx.seed.users;
      assert.deepEqual((await rowsOf(body.id)).map((r) => r.user_id), [olivia.id, adam.id, mark.id, milo.id].sort((a, b) => a - b));
    });

    it('sends to a stream by id, with subject as the alias of topic and channel as the type', async () => {
      const body = expectSuccess(
        await ctx.as('mona').post('/messages', { type: 'channel', to: ctx.seed.streams.design.id, subject: 'colours', content: 'Teal?' }),
      );
      assert.equal((await messageRow(body.id)).subject, 'colours');
      // A JSON list of one stream works too.
      expectSuccess(await ctx.as('mona').post('/messages', { type: 'stream', to: '["design"]', topic: 'colours', content: 'x' }));
    });

    it('marks the sender read only for full user interfaces, unless read_by_sender says otherwise', async () => {
      const api = expectSuccess(await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'a' }));
      const own = (await rowsOf(api.id)).find((r) => r.user_id === ctx.seed.users.mark.id)!;
      assert.equal(own.flags & 1, 0);
      const mobile = await ctx.as('mark').post(
        '/messages',
        { type: 'stream', to: 'general', topic: 't', content: 'b' },
        { headers: { 'user-agent': 'ZulipMobile/27.2 (Android 14)' } },
      );
      const row = await messageRow(expectSuccess(mobile).id);
      assert.equal(row.sending_client, 'ZulipMobile');
      assert.equal((await rowsOf(row.id)).find((r) => r.user_id === ctx.seed.users.mark.id)!.flags & 1, 1);
      const explicit = expectSuccess(
        await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'c', read_by_sender: true }),
      );
      assert.equal((await rowsOf(explicit.id)).find((r) => r.user_id === ctx.seed.users.mark.id)!.flags & 1, 1);
    });

    it('sends one-on-one direct messages by id and by email, and to oneself', async () => {
      const { mark, mona } = ctx.seed.users;
      const byId = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: 'hi' }));
      assert.equal((await messageRow(byId.id)).recipient_id, mona.recipient_id);
      assert.deepEqual((await rowsOf(byId.id)).map((r) => r.user_id), [mark.id, mona.id]);
      const byEmail = expectSuccess(await ctx.as('mark').post('/messages', { type: 'private', to: ['MONA@confab.test'], content: 'hey' }));
      assert.equal((await messageRow(byEmail.id)).recipient_id, mona.recipient_id);
      const legacy = expectSuccess(await ctx.as('mark').post('/messages', { type: 'private', to: 'mona@confab.test', content: 'yo' }));
      assert.equal((await messageRow(legacy.id)).recipient_id, mona.recipient_id);
      const self = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mark.id], content: 'note' }));
      assert.equal((await messageRow(self.id)).recipient_id, mark.recipient_id);
      assert.deepEqual((await rowsOf(self.id)).map((r) => r.user_id), [mark.id]);
    });

    it('creates a group conversation once and reuses it whatever the order', async () => {
      const { mark, mona, milo } = ctx.seed.users;
      const first = expectSuccess(await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id, milo.id], content: 'all three' }));
      const second = expectSuccess(await ctx.as('milo').post('/messages', { type: 'direct', to: [mark.id, mona.id], content: 'again' }));
      const a = await messageRow(first.id);
      const b = await messageRow(second.id);
      assert.equal(a.recipient_id, b.recipient_id);
      assert.deepEqual((await rowsOf(first.id)).map((r) => r.user_id), [mark.id, mona.id, milo.id]);
      // Direct messages carry the is_private bit for every recipient.
      assert.ok((await rowsOf(first.id)).every((r) => (r.flags & (1 << 11)) !== 0));
    });

    it('trims content, truncates long content and long topics', async () => {
      const body = expectSuccess(
        await ctx.as('mark').post('/messages', { type: 'stream', to: 'general', topic: `  ${'x'.repeat(70)} `, content: `\n\n${'y'.repeat(10005)}  ` }),
      );
      const row = await messageRow(body.id);
      assert.equal(row.subject, `${'x'.repeat(57)}...`);
      assert.equal(row.content, `${'y'.repeat(9980)}\n[message truncated]`);
    });

    it('refuses bad content and topics with the reference texts', async () => {
      const mark = ctx.as('mark');
      expectError(await mark.post('/messages', { type: 'stream', to: 'general', topic: 't', content: '  \n ' }), 'Message must not be empty');
      expectError(await mark.post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'a\u0000b' }), 'Message must not contain null bytes');
      expectError(await mark.post('/messages', { type: 'stream', to: 'general', content: 'a' }), 'Missing topic');
      expectError(await mark.post('/messages', { type: 'stream', to: 'general', topic: 'a\u0001', content: 'a' }), 'Invalid character in topic, at position 2!');
    });

    it('refuses missing parameters and bad types', async () => {
      const mark = ctx.as('mark');
      const missing = expectError(await mark.post('/messages', { type: 'stream', to: 'general', topic: 't' }), "Missing 'content' argument", 'REQUEST_VARIABLE_MISSING');
      assert.equal(missing.var_name, 'content');
      expectError(await mark.post('/messages', { type: 'carrier-pigeon', to: 'general', content: 'x' }), 'Invalid type');
      expectError(await mark.post('/messages', { type: 'stream', to: '["general","design"]', topic: 't', content: 'x' }), 'Cannot send to multiple channels');
    });

    it('refuses unknown streams by name and id', async () => {
      const byName = expectError(
        await ctx.as('mark').post('/messages', { type: 'stream', to: 'nowhere', topic: 't', content: 'x' }),
        "Channel 'nowhere' does not exist",
        'STREAM_DOES_NOT_EXIST',
      );
      assert.equal(byName.stream, 'nowhere');
      const byId = expectError(
        await ctx.as('mark').post('/messages', { type: 'stream', to: 99999, topic: 't', content: 'x' }),
        "Channel with ID '99999' does not exist",
        'STREAM_DOES_NOT_EXIST',
      );
      assert.equal(byId.stream_id, 99999);
    });

    it('refuses private streams to non-subscribers and public ones to unsubscribed guests', async () => {
      expectError(
        await ctx.as('mark').post('/messages', { type: 'stream', to: 'leadership', topic: 't', content: 'x' }),
        "Not authorized to send to channel 'leadership'",
      );
      expectError(
        await ctx.as('gus').post('/messages', { type: 'stream', to: 'general', topic: 't', content: 'x' }),
        "Not authorized to send to channel 'general'",
      );
      expectSuccess(await ctx.as('adam').post('/messages', { type: 'stream', to: 'leadership', topic: 't', content: 'x' }));
    });

    it('refuses unknown and deactivated direct recipients, and mixed lists', async () => {
      const mark = ctx.as('mark');
      expectError(await mark.post('/messages', { type: 'direct', to: [987654], content: 'x' }), 'Invalid user ID 987654');
      expectError(await mark.post('/messages', { type: 'direct', to: ['ghost@confab.test'], content: 'x' }), "Invalid email 'ghost@confab.test'");
      expectError(
        await mark.post('/messages', { type: 'direct', to: [ctx.seed.users.mona.id, 'milo@confab.test'], content: 'x' }),
        'Recipient lists may contain emails or user IDs, but not both.',
      );
      expectError(await mark.post('/messages', { type: 'direct', to: [], content: 'x' }), 'Message must have recipients');
      const { milo } = ctx.seed.users;
      await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', milo.id).execute();
      expectError(await mark.post('/messages', { type: 'direct', to: [milo.id], content: 'x' }), "'milo@confab.test' is no longer using Zulip.");
      await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', milo.id).execute();
    });

    it('applies wildcard_mention_policy to wildcard mentions of a large stream or topic', async () => {
      // More than 15 subscribers: everyone in a fresh stream, plus a dozen new accounts.
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) {
        const user = expectSuccess(
          await ctx.as('olivia').post('/users', { email: `sendcrowd${i}@confab.test`, password: 'long enough password', full_name: `Send Crowd ${i}` }),
        );
        ids.push(user.user_id);
      }
      const everyone = [...Object.values(ctx.seed.users).map((u) => u.id), ...ids];
      expectSuccess(await ctx.as('olivia').post('/users/me/subscriptions', { subscriptions: [{ name: 'send crowd' }], principals: everyone }));
      const post = (who: 'mark' | 'adam', topic: string, content: string) =>
        ctx.as(who).post('/messages', { type: 'stream', to: 'send crowd', topic, content });
      // The era's default policy (5) keeps large-audience wildcards for administrators.
      expectError(
        await post('mark', 'hello', '@**all** hello'),
        'You do not have permission to use channel wildcard mentions in this channel.',
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      );
      expectSuccess(await post('adam', 'hello', '@**all** hello'));
      // A topic with few participants may be mentioned by anyone; a busy one may not.
      expectSuccess(await post('mark', 'busy', '@**topic** hello'));
      for (const name of ['mona', 'milo', 'maya', 'gus', 'adam', 'olivia'] as const) {
        expectSuccess(await ctx.as(name).post('/messages', { type: 'stream', to: 'send crowd', topic: 'busy', content: 'here' }));
      }
      for (const i of ids) {
        await ctx.services.db.insertInto('message').values({
          realm_id: ctx.seed.realm.id, sender_id: i, recipient_id: (await ctx.services.db.selectFrom('stream').select('recipient_id').where('name', '=', 'send crowd').executeTakeFirstOrThrow()).recipient_id!,
          subject: 'busy', content: 'me too', rendered_content: '<p>me too</p>', rendered_content_version: 1, date_sent: Math.floor(ctx.clock.now()),
          sending_client: 'test', last_edit_time: null, last_moved_time: null, edit_history: null, has_link: 0, has_image: 0, has_attachment: 0, is_me_message: 0,
        }).execute();
      }
      expectError(
        await post('mark', 'busy', '@**topic** hello again'),
        'You do not have permission to use topic wildcard mentions in this topic.',
        'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      );
      const unchanged = await ctx.services.db.selectFrom('message').select('id').where('content', '=', '@**topic** hello again').execute();
      assert.equal(unchanged.length, 0);
      await ctx.services.db.updateTable('realm').set({ settings: JSON.stringify({ wildcard_mention_policy: 1 }) }).execute();
      try {
        expectSuccess(await post('mark', 'busy', '@**topic** hello again'));
        expectSuccess(await post('mark', 'hello', '@**all** hello'));
      } finally {
        await ctx.services.db.updateTable('realm').set({ settings: '{}' }).execute();
      }
    });

    it('applies the stream posting policy', async () => {
      const { design } = ctx.seed.streams;
      await ctx.services.db.updateTable('stream').set({ stream_post_policy: 2 }).where('id', '=', design.id).execute();
      expectError(
        await ctx.as('mona').post('/messages', { type: 'stream', to: 'design', topic: 't', content: 'x' }),
        'Only organization administrators can send to this channel.',
      );
      await ctx.services.db.updateTable('stream').set({ stream_post_policy: 4 }).where('id', '=', design.id).execute();
      expectError(
        await ctx.as('mona').post('/messages', { type: 'stream', to: 'design', topic: 't', content: 'x' }),
        'Only organization administrators and moderators can send to this channel.',
      );
      expectSuccess(await ctx.as('maya').post('/messages', { type: 'stream', to: 'design', topic: 't', content: 'x' }));
      await ctx.services.db.updateTable('stream').set({ stream_post_policy: 1 }).where('id', '=', design.id).execute();
    });

    it('announces the message with each recipient\'s flags and the local id to the sender', async () => {
      ctx.clearEvents();
      const { mark, mona } = ctx.seed.users;
      const body = expectSuccess(
        await ctx.as('mark').post('/messages', { type: 'direct', to: [mona.id], content: 'ping', queue_id: 'q1', local_id: '7.01', read_by_sender: true }),
      );
      const events = ctx.events.filter((d) => d.event.type === 'message');
      assert.equal(events.length, 2);
      const toMark = events.find((d) => d.users.includes(mark.id))!;
      const toMona = events.find((d) => d.users.includes(mona.id))!;
      assert.deepEqual(toMark.event.flags, ['read']);
      assert.equal(toMark.event.local_message_id, '7.01');
      assert.deepEqual(toMona.event.flags, []);
      assert.equal(toMona.event.local_message_id, undefined);
      const message = toMona.event.message as Record<string, any>;
      assert.equal(message.id, body.id);
      assert.equal(message.type, 'private');
      assert.equal(message.content, '<p>ping</p>');
      assert.deepEqual(message.display_recipient.map((u: { id: number }) => u.id), [mark.id, mona.id]);
    });

    it('reads the body from a multipart form as zulip-js sends it', async () => {
      const boundary = '----confabtest';
      const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
      const payload = part('type', 'stream') + part('to', 'general') + part('topic', 'multipart') + part('content', 'from zulip-js') + `--${boundary}--\r\n`;
      const { mark } = ctx.seed.users;
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: {
          authorization: `Basic ${Buffer.from(`${mark.delivery_email}:${mark.api_key}`).toString('base64')}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      });
      assert.equal(res.statusCode, 200, res.body);
      const row = await messageRow(JSON.parse(res.body).id);
      assert.equal(row.subject, 'multipart');
      assert.equal(row.content, 'from zulip-js');
    });
  });
}
