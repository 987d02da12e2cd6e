import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBot, undocumented } from '../support/bots.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';
import { avatarKey } from '../../src/actions/avatar-files.js';
import { storageOf } from '../../src/adapters/storage/services.js';
import { authOf, bandedPng, imagePart } from '../support/avatar-images.js';
import { type MultipartPart, multipartBody } from '../support/multipart.js';

for (const dialect of testDialects()) {
  describe(`PATCH /bots/{bot_id} [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const botEvents = () => ctx.events.filter((d) => d.event.type === 'realm_bot');

    it('renames the bot and changes its defaults, answering the bot as it now is', async () => {
      const bot = await createBot(ctx, 'mark', 'renamed', { bot_type: 3, payload_url: JSON.stringify('https://a.example.com/') });
      ctx.clearEvents();
      const body = expectSuccess(
        await ctx.as('mark').patch(
          `/bots/${bot.id}`,
          {
            full_name: 'New Name',
            default_sending_stream: 'general',
            default_all_public_streams: true,
            service_payload_url: JSON.stringify('https://b.example.com/'),
            service_interface: 2,
          },
          undocumented,
        ),
      );
      assert.deepEqual(
        { ...body, avatar_url: typeof body.avatar_url },
        {
          result: 'success',
          msg: '',
          full_name: 'New Name',
          avatar_url: 'string',
          service_interface: 2,
          service_payload_url: 'https://b.example.com/',
          config_data: null,
          default_sending_stream: 'general',
          default_events_register_stream: null,
          default_all_public_streams: true,
          bot_owner: 'mark@confab.test',
        },
      );
      const updates = botEvents().map((d) => Object.keys(d.event.bot as object).sort().join());
      assert.deepEqual(updates, [
        'full_name,user_id',
        'default_sending_stream,user_id',
        'default_all_public_streams,user_id',
        'services,user_id',
      ]);
      for (const [i, d] of botEvents().entries()) checkEvent({ ...d.event, id: i });
      const services = botEvents()[3]!.event.bot as { services: Array<{ base_url: string; interface: number }> };
      assert.deepEqual(services.services.map((s) => [s.base_url, s.interface]), [['https://b.example.com/', 2]]);
      expectSuccess(await ctx.as('mark').patch(`/bots/${bot.id}`, { default_sending_stream: '' }, undocumented));
      const row = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', bot.id).executeTakeFirstOrThrow();
      assert.equal(row.default_sending_stream_id, null);
    });

    it('takes a new avatar as one uploaded file, and refuses two', async () => {
      const bot = await createBot(ctx, 'mark', 'repictured');
      const patchMultipart = async (parts: MultipartPart[]) => {
        const { payload, contentType } = multipartBody(parts);
        const headers = { 'content-type': contentType, authorization: authOf(ctx.seed.users.mark) };
        const res = await ctx.app.inject({ method: 'PATCH', url: `/api/v1/bots/${bot.id}`, headers, payload });
        return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
      };
      const png = await bandedPng();
      expectError(await patchMultipart([imagePart(png), imagePart(png, 'b.png')]), 'You may only upload one file at a time');
      ctx.clearEvents();
      const body = expectSuccess(await patchMultipart([{ name: 'full_name', value: 'Repictured Bot' }, imagePart(png)]));
      const row = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', bot.id).executeTakeFirstOrThrow();
      assert.deepEqual([row.full_name, row.avatar_source], ['Repictured Bot', 'U']);
      assert.equal(body.avatar_url, `/user_avatars/${ctx.seed.realm.id}/${bot.id}.png?version=${row.avatar_version}`);
      assert.ok(await storageOf(ctx.services).get(avatarKey(ctx.seed.realm.id, bot.id)));
      const avatarEvent = ctx.events.find((d) => d.event.type === 'realm_bot' && (d.event.bot as Record<string, unknown>).avatar_url);
      assert.deepEqual(avatarEvent?.event.bot, { user_id: bot.id, avatar_url: body.avatar_url });
    });

    it('hands the bot to a new owner: delete for the old, add for the new, bot_owner_id for all', async () => {
      const { mark, mona } = ctx.seed.users;
      const bot = await createBot(ctx, 'mark', 'handed');
      ctx.clearEvents();
      expectSuccess(await ctx.as('mark').patch(`/bots/${bot.id}`, { bot_owner_id: mona.id }, undocumented));
      const kinds = botEvents().map((d) => [d.event.op, d.users]);
      assert.deepEqual(kinds[0], ['delete', [mark.id]]);
      assert.deepEqual(kinds[1], ['add', [mona.id]]);
      assert.equal(kinds[2]![0], 'update');
      for (const [i, d] of botEvents().entries()) checkEvent({ ...d.event, id: i });
      const person = ctx.events.find((d) => d.event.type === 'realm_user')?.event.person;
      assert.deepEqual(person, { user_id: bot.id, bot_owner_id: mona.id });
      // Mark no longer administers it.
      expectError(await ctx.as('mark').patch(`/bots/${bot.id}`, { full_name: 'Mine Again' }, undocumented), 'Insufficient permission');
    });

    it('refuses with the reference texts', async () => {
      const { milo, gus } = ctx.seed.users;
      const bot = await createBot(ctx, 'milo', 'refusing');
      const patch = (params: Record<string, unknown>, who: 'milo' | 'mark' | 'adam' = 'milo', id = bot.id) =>
        ctx.as(who).patch(`/bots/${id}`, params, undocumented);
      expectError(await patch({ full_name: 'x' }, 'mark'), 'Insufficient permission');
      expectError(await patch({ full_name: 'x' }, 'milo', 99999), 'No such bot');
      expectError(await patch({ full_name: 'x' }, 'milo', milo.id), 'No such bot');
      expectError(await patch({ full_name: 'x' }), 'Name too short!');
      expectError(await patch({ full_name: 'Mona Member' }), 'Name is already in use!');
      expectError(await patch({ role: 200 }), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await patch({ role: 100 }, 'adam'), 'Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
      expectError(await patch({ bot_owner_id: 99999 }), 'Failed to change owner, no such user');
      expectError(await patch({ bot_owner_id: ctx.seed.users.welcomeBot.id }), "Failed to change owner, bots can't own other bots");
      expectSuccess(await ctx.as('adam').delete(`/users/${gus.id}`));
      expectError(await patch({ bot_owner_id: gus.id }), 'Failed to change owner, user is deactivated');
      expectError(await patch({ default_sending_stream: 'leadership' }), "Invalid channel name 'leadership'");
      expectError(await patch({ service_payload_url: JSON.stringify('https://x.example.com/'), service_interface: 5 }), 'Invalid interface type');
    });

    it('lets an administrator change the role of any bot', async () => {
      const bot = await createBot(ctx, 'mona', 'promoted');
      expectSuccess(await ctx.as('adam').patch(`/bots/${bot.id}`, { role: 300 }, undocumented));
      const row = await ctx.services.db.selectFrom('user_profile').select('role').where('id', '=', bot.id).executeTakeFirstOrThrow();
      assert.equal(row.role, 300);
    });
  });
}
