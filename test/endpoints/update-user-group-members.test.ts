import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { createGroup, groupId, listedGroup } from '../support/user-groups.js';

for (const dialect of testDialects()) {
  describe(`POST /user_groups/{user_group_id}/members [${dialect}]`, () => {
    let ctx: TestContext;
    let crew: number;
    before(async () => {
      ctx = await setup(dialect);
      crew = await createGroup(ctx, 'crew', { members: [ctx.seed.users.mona.id] });
    });
    after(() => ctx.close());

    const update = (params: Record<string, unknown>, who: 'mona' | 'mark' | 'adam' | 'gus' = 'mona', id = crew) =>
      ctx.as(who).post(`/user_groups/${id}/members`, params);
    const members = async () => (await listedGroup(ctx, crew))!.members as number[];

    it('adds and deletes direct members, adds first, in one request', async () => {
      const { mona, mark, milo } = ctx.seed.users;
      expectSuccess(await update({ add: [mark.id, milo.id] }));
      assert.deepEqual(await members(), [mona.id, mark.id, milo.id].sort((a, b) => a - b));
      expectSuccess(await update({ add: [ctx.seed.users.maya.id], delete: [milo.id, mark.id] }));
      assert.deepEqual(await members(), [mona.id, ctx.seed.users.maya.id].sort((a, b) => a - b));
      expectSuccess(await update({ delete: [ctx.seed.users.maya.id] }));
    });

    it('refuses an empty request, present and absent members, and unknown users, changing nothing', async () => {
      const { mona, mark } = ctx.seed.users;
      expectError(await update({}), 'Nothing to do. Specify at least one of "add" or "delete".');
      expectError(await update({ add: [mona.id] }), `User ${mona.id} is already a member of this group`);
      expectError(await update({ delete: [mark.id] }), `There is no member '${mark.id}' in this user group`);
      expectError(await update({ add: [424_242] }), 'Invalid user ID: 424242');
      expectError(await update({ delete: [424_242] }), 'Invalid user ID: 424242');
      // The add succeeds, the delete fails: the request as a whole is rolled back.
      expectError(await update({ add: [mark.id], delete: [ctx.seed.users.milo.id] }), `There is no member '${ctx.seed.users.milo.id}' in this user group`);
      assert.deepEqual(await members(), [mona.id]);
    });

    it('has the notification bot tell people someone else added or removed, but not the actor', async () => {
      const { mona, mark, maya } = ctx.seed.users;
      const bot = (await ctx.services.db.selectFrom('realm').select('notification_bot_id').where('id', '=', ctx.seed.realm.id).executeTakeFirstOrThrow()).notification_bot_id!;
      const fromBot = async () =>
        ctx.services.db
          .selectFrom('message')
          .innerJoin('user_profile', 'user_profile.recipient_id', 'message.recipient_id')
          .select(['message.content', 'message.rendered_content', 'user_profile.id as to'])
          .where('message.sender_id', '=', bot)
          .orderBy('message.id')
          .execute();
      const before = (await fromBot()).length;
      expectSuccess(await update({ add: [mark.id] }));
      expectSuccess(await update({ delete: [mark.id] }));
      // Maya adds herself: no message.
      expectSuccess(await ctx.as('maya').post(`/user_groups/${crew}/members`, { add: [maya.id], delete: [maya.id] }));
      const sent = (await fromBot()).slice(before);
      const who = `@_**${mona.full_name}|${mona.id}**`;
      assert.deepEqual(
        sent.map((m) => [m.to, m.content]),
        [
          [mark.id, `${who} added you to the group @_*crew*.`],
          [mark.id, `${who} removed you from the group @_*crew*.`],
        ],
      );
      assert.equal(
        sent[0]!.rendered_content,
        `<p><span class="user-mention silent" data-user-id="${mona.id}">${mona.full_name}</span> added you to the group <span class="user-group-mention silent" data-user-group-id="${crew}">crew</span>.</p>`,
      );
    });

    it('is for moderators and above and direct members; never system groups', async () => {
      const { mark } = ctx.seed.users;
      expectError(await update({ add: [mark.id] }, 'mark'), 'Insufficient permission');
      expectError(await update({ add: [mark.id] }, 'gus'), 'Not allowed for guest users');
      expectError(await update({ add: [mark.id] }, 'adam', await groupId(ctx, 'role:members')), 'Insufficient permission');
      expectError(await update({ add: [mark.id] }, 'adam', 999_999), 'Invalid user group');
      expectSuccess(await update({ add: [mark.id] }, 'adam'));
      // Now a direct member, mark may take himself out.
      expectSuccess(await update({ delete: [mark.id] }, 'mark'));
    });
  });
}
