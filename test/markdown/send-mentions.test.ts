// Sending rendered messages: mentions, wildcards and group mentions set the recipients' flags,
// which is:mentioned and register's unread mentions read; stream links respect visibility.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { flagNames } from '../../src/lib/message-flags.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`sending messages with mentions [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    type Who = 'olivia' | 'adam' | 'maya' | 'mark' | 'mona' | 'milo' | 'gus';
    const send = async (who: Who, to: string, topic: string, content: string): Promise<number> =>
      expectSuccess(await ctx.as(who).post('/messages', { type: 'stream', to, topic, content })).id;
    /** Each recipient's flag names, by user name. */
    const flagsOf = async (messageId: number): Promise<Record<string, string[]>> => {
      const rows = await ctx.services.db.selectFrom('user_message').selectAll().where('message_id', '=', messageId).execute();
      const names = new Map(Object.entries(ctx.seed.users).map(([name, user]) => [user.id, name]));
      return Object.fromEntries(rows.map((r) => [names.get(r.user_id)!, flagNames(r.flags).filter((f) => f !== 'read')]));
    };
    const rendered = async (id: number) =>
      (await ctx.services.db.selectFrom('message').select('rendered_content').where('id', '=', id).executeTakeFirstOrThrow()).rendered_content;
    const mentionedIds = async (who: Who): Promise<number[]> => {
      const body = expectSuccess(await ctx.as(who).get('/messages', { anchor: 'oldest', num_after: 1000, narrow: JSON.stringify([['is', 'mentioned']]) }));
      return body.messages.map((m: { id: number }) => m.id);
    };

    it('flags a mentioned user, renders the mention, and is:mentioned and unread mentions find it', async () => {
      const { mark } = ctx.seed.users;
      const id = await send('olivia', 'engineering', 'reviews', 'Please look, @**Mark Member**.');
      assert.equal(await rendered(id), `<p>Please look, <span class="user-mention" data-user-id="${mark.id}">@Mark Member</span>.</p>`);
      assert.deepEqual(await flagsOf(id), { olivia: [], adam: [], mark: ['mentioned'], milo: [] });
      assert.ok((await mentionedIds('mark')).includes(id));
      assert.ok(!(await mentionedIds('milo')).includes(id));
      const state = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['message', 'update_message_flags'] }));
      assert.ok(state.unread_msgs.mentions.includes(id));
      const stream = state.unread_msgs.streams.find((s: { unread_message_ids: number[] }) => s.unread_message_ids.includes(id));
      assert.equal(stream.topic, 'reviews');
    });

    it('flags a mention by name and id, but not a silent mention', async () => {
      const { milo } = ctx.seed.users;
      const id = await send('olivia', 'engineering', 'reviews', `@**Milo Member|${milo.id}** and @_**Mark Member**`);
      assert.deepEqual(await flagsOf(id), { olivia: [], adam: [], mark: [], milo: ['mentioned'] });
      assert.match(await rendered(id), /<span class="user-mention silent" data-user-id="\d+">Mark Member<\/span>/);
    });

    it('leaves a mention of someone unknown as bold text and flags no one', async () => {
      const id = await send('olivia', 'engineering', 'reviews', '@**Nobody At All**');
      assert.equal(await rendered(id), '<p>@<strong>Nobody At All</strong></p>');
      assert.deepEqual(await flagsOf(id), { olivia: [], adam: [], mark: [], milo: [] });
    });

    it('gives every other recipient the stream wildcard flag for @**all**', async () => {
      const id = await send('mark', 'engineering', 'announce', 'Heads up @**all**');
      const wild = ['stream_wildcard_mentioned', 'wildcard_mentioned'];
      assert.deepEqual(await flagsOf(id), { olivia: wild, adam: wild, mark: [], milo: wild });
      assert.ok((await mentionedIds('milo')).includes(id));
      const silent = await send('mark', 'engineering', 'announce', 'Quietly @_**channel**');
      assert.deepEqual(await flagsOf(silent), { olivia: [], adam: [], mark: [], milo: [] });
    });

    it('gives the topic wildcard flag to the topic participants only', async () => {
      const first = await send('milo', 'engineering', 'outage', 'The API is down');
      expectSuccess(await ctx.as('adam').post(`/messages/${first}/reactions`, { emoji_name: 'eyes' }));
      const id = await send('olivia', 'engineering', 'outage', '@**topic** it is back');
      const wild = ['topic_wildcard_mentioned', 'wildcard_mentioned'];
      assert.deepEqual(await flagsOf(id), { olivia: [], adam: wild, mark: [], milo: wild });
      assert.equal(await rendered(id), '<p><span class="topic-mention">@topic</span> it is back</p>');
    });

    it('refuses a mention of a system group, which only role:nobody may mention, but renders a silent one', async () => {
      const group = await ctx.services.db.selectFrom('user_group').select('id').where('name', '=', 'role:administrators').executeTakeFirstOrThrow();
      expectError(
        await ctx.as('olivia').post('/messages', { type: 'stream', to: 'engineering', topic: 'access', content: 'Can @*role:administrators* help?' }),
        "You are not allowed to mention user group 'role:administrators'. You must be a member of 'role:nobody' to mention this group.",
      );
      const id = await send('mark', 'engineering', 'access', 'Can @_*role:administrators* grant access?');
      assert.equal(
        await rendered(id),
        `<p>Can <span class="user-group-mention silent" data-user-group-id="${group.id}">role:administrators</span> grant access?</p>`,
      );
      assert.deepEqual(await flagsOf(id), { olivia: [], adam: [], mark: [], milo: [] });
    });

    it('flags the members of subgroups of a mentioned group, all the way down', async () => {
      const groups = expectSuccess(await ctx.as('olivia').get('/user_groups')).user_groups as Array<{ id: number; name: string }>;
      const admins = groups.find((g) => g.name === 'role:administrators')!.id;
      expectSuccess(await ctx.as('olivia').post('/user_groups/create', { name: 'ops', description: 'Operations', members: '[]' }));
      const ops = (expectSuccess(await ctx.as('olivia').get('/user_groups')).user_groups as Array<{ id: number; name: string }>).find((g) => g.name === 'ops')!;
      expectSuccess(await ctx.as('olivia').post(`/user_groups/${ops.id}/subgroups`, { add: JSON.stringify([admins]) }));
      const id = await send('mark', 'engineering', 'access', 'Can @*ops* grant access?');
      assert.equal(await rendered(id), `<p>Can <span class="user-group-mention" data-user-group-id="${ops.id}">@ops</span> grant access?</p>`);
      // adam is an administrator; olivia, an owner, is in role:owners inside role:administrators.
      assert.deepEqual(await flagsOf(id), { olivia: ['mentioned'], adam: ['mentioned'], mark: [], milo: [] });
    });

    it("refuses a group mention from a sender outside the group's can_mention_group, on send and on edit", async () => {
      const groups = () => ctx.as('olivia').get('/user_groups').then((r) => expectSuccess(r).user_groups as Array<Record<string, any>>);
      const moderators = (await groups()).find((g) => g.name === 'role:moderators')!.id;
      expectSuccess(await ctx.as('olivia').post('/user_groups/create', { name: 'oncall', description: '', can_mention_group: moderators }));
      const denied = "You are not allowed to mention user group 'oncall'. You must be a member of 'role:moderators' to mention this group.";
      expectError(await ctx.as('mark').post('/messages', { type: 'stream', to: 'engineering', topic: 'pager', content: 'Hey @*oncall*' }), denied);
      // Silent mentions notify no one, so anyone may write them.
      await send('mark', 'engineering', 'pager', 'FYI @_*oncall*');
      // adam is an administrator: inside role:moderators through its subgroups.
      await send('adam', 'engineering', 'pager', 'Hey @*oncall*');
      const own = await send('mark', 'engineering', 'pager', 'draft');
      expectError(await ctx.as('mark').patch(`/messages/${own}`, { content: 'Hey @*oncall*' }), denied);
    });

    it('flags the members of a mentioned custom group, but not for a silent group mention', async () => {
      const { db } = ctx.services;
      const { mark, milo, mona } = ctx.seed.users;
      const { id: groupId } = await db
        .insertInto('user_group')
        .values({ realm_id: ctx.seed.realm.id, name: 'backend', description: 'Backend team', is_system_group: 0 })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db.insertInto('user_group_member').values([mark, milo, mona].map((u) => ({ group_id: groupId, user_id: u.id }))).execute();
      const id = await send('olivia', 'engineering', 'backend', 'Ping @*backend*');
      assert.deepEqual(await flagsOf(id), { olivia: [], adam: [], mark: ['mentioned'], milo: ['mentioned'] });
      const silent = await send('olivia', 'engineering', 'backend', 'FYI @_*backend*');
      assert.deepEqual(await flagsOf(silent), { olivia: [], adam: [], mark: [], milo: [] });
    });

    it('links streams the sender may see, with the newest message of a linked topic', async () => {
      const { engineering, leadership } = ctx.seed.streams;
      const latest = await send('mark', 'engineering', 'release plan', 'draft');
      const id = await send('mark', 'general', 'links', 'See #**engineering>release plan**, #**engineering** and #**leadership**');
      assert.equal(
        await rendered(id),
        `<p>See <a class="stream-topic" data-stream-id="${engineering.id}" href="/#narrow/channel/${engineering.id}-engineering/topic/release.20plan/with/${latest}">` +
          `#engineering &gt; release plan</a>, <a class="stream" data-stream-id="${engineering.id}" href="/#narrow/channel/${engineering.id}-engineering">#engineering</a>` +
          ' and #<strong>leadership</strong></p>',
      );
      const byMember = await send('olivia', 'general', 'links', '#**leadership**');
      assert.equal(
        await rendered(byMember),
        `<p><a class="stream" data-stream-id="${leadership.id}" href="/#narrow/channel/${leadership.id}-leadership">#leadership</a></p>`,
      );
    });

    it('flags mentions in direct messages, wildcards included', async () => {
      const { mark, mona } = ctx.seed.users;
      const dm = expectSuccess(await ctx.as('olivia').post('/messages', { type: 'direct', to: JSON.stringify([mark.id, mona.id]), content: '@**all** and @**Mona Member**' }));
      const wild = ['stream_wildcard_mentioned', 'wildcard_mentioned'];
      assert.deepEqual(await flagsOf(dm.id), { olivia: [], mark: wild, mona: ['mentioned', ...wild] });
    });

    it('refuses a message whose rendering would be too large, storing nothing', async () => {
      const content = '$$\\sqrt{\\frac{a}{b}}$$ '.repeat(430);
      const before = await ctx.services.db.selectFrom('message').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
      expectError(await ctx.as('mark').post('/messages', { type: 'stream', to: 'engineering', topic: 'math', content }), 'Unable to render message');
      const afterSend = await ctx.services.db.selectFrom('message').select((eb) => eb.fn.max('id').as('id')).executeTakeFirstOrThrow();
      assert.equal(afterSend.id, before.id);
    });

    it('stores /me messages as me-messages and returns raw Markdown when asked', async () => {
      const id = await send('mark', 'engineering', 'status', '/me is **away**');
      const html = expectSuccess(await ctx.as('mark').get(`/messages/${id}`));
      assert.equal(html.message.content, '<p>/me is <strong>away</strong></p>');
      assert.equal(html.message.is_me_message, true);
      const raw = expectSuccess(await ctx.as('mark').get('/messages', { anchor: id, num_before: 0, num_after: 0, apply_markdown: false }));
      assert.equal(raw.messages[0].content, '/me is **away**');
      assert.equal(raw.messages[0].content_type, 'text/x-markdown');
    });
  });
}
