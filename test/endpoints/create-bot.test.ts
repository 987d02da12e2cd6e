import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBot, undocumented } from '../support/bots.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { checkEvent } from '../support/openapi-check.js';
import { avatarKey } from '../../src/actions/avatar-files.js';
import { storageOf } from '../../src/adapters/storage/services.js';
import { authOf, bandedPng, HTML_AS_PNG, imagePart } from '../support/avatar-images.js';
import { type MultipartPart, multipartBody } from '../support/multipart.js';

for (const dialect of testDialects()) {
  describe(`POST /bots [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const policy = async (value: number) => expectSuccess(await ctx.as('olivia').patch('/realm', { bot_creation_policy: value }, undocumented));

    it('creates a generic bot owned by the requester, answering its key and defaults', async () => {
      ctx.clearEvents();
      const body = expectSuccess(await ctx.as('mark').post('/bots', { full_name: 'Helper', short_name: 'helper' }, undocumented));
      assert.deepEqual(Object.keys(body).sort(), [
        'api_key', 'avatar_url', 'default_all_public_streams', 'default_events_register_stream', 'default_sending_stream', 'msg', 'result', 'user_id',
      ]);
      assert.equal(body.default_sending_stream, null);
      assert.equal(body.default_all_public_streams, false);
      const row = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', body.user_id).executeTakeFirstOrThrow();
      assert.deepEqual(
        { email: row.email, is_bot: row.is_bot, bot_type: row.bot_type, owner: row.bot_owner_id, key: row.api_key },
        { email: 'helper-bot@confab.test', is_bot: 1, bot_type: 1, owner: ctx.seed.users.mark.id, key: body.api_key },
      );
      const add = ctx.events.find((d) => d.event.type === 'realm_bot');
      assert.equal(add?.event.op, 'add');
      assert.deepEqual(add!.users.sort((a, b) => a - b), [ctx.seed.users.olivia.id, ctx.seed.users.adam.id, ctx.seed.users.mark.id].sort((a, b) => a - b));
      checkEvent({ ...add!.event, id: 0 });
      assert.ok(ctx.events.some((d) => d.event.type === 'realm_user' && d.event.op === 'add'));
    });

    it('takes default streams and answers their names; an outgoing bot gets its service', async () => {
      const body = expectSuccess(
        await ctx.as('mark').post(
          '/bots',
          {
            full_name: 'Hooky',
            short_name: 'hooky',
            bot_type: 3,
            payload_url: JSON.stringify('https://hooks.example.com/in'),
            interface_type: 2,
            default_sending_stream: 'general',
            default_events_register_stream: 'engineering',
            default_all_public_streams: true,
          },
          undocumented,
        ),
      );
      assert.deepEqual(
        [body.default_sending_stream, body.default_events_register_stream, body.default_all_public_streams],
        ['general', 'engineering', true],
      );
      const services = await ctx.services.db.selectFrom('bot_service').selectAll().where('bot_id', '=', body.user_id).execute();
      assert.deepEqual(services.map((s) => [s.name, s.base_url, s.interface, s.token.length]), [['hooky', 'https://hooks.example.com/in', 2, 32]]);
    });

    it('refuses bad input with the reference texts', async () => {
      const post = (params: Record<string, unknown>) =>
        ctx.as('mark').post('/bots', { full_name: 'Some Bot', short_name: 'some', ...params }, undocumented);
      expectError(await post({ short_name: '  ' }), 'Bad name or username');
      expectError(await post({ short_name: 'two words' }), 'Bad name or username');
      expectError(await post({ full_name: 'x' }), 'Name too short!');
      expectError(await post({ bot_type: 4 }), 'Embedded bots are not enabled.');
      expectError(await post({ bot_type: 7 }), 'Invalid bot type');
      expectError(await post({ bot_type: 3, interface_type: 9 }), 'Invalid interface type');
      expectError(await post({ bot_type: 3, payload_url: JSON.stringify('not a url') }), 'payload_url is not a URL');
      expectError(await post({ default_sending_stream: 'nowhere' }), "Invalid channel name 'nowhere'");
      expectError(await post({ default_sending_stream: 'leadership' }), "Invalid channel name 'leadership'");
      expectError(await post({ bot_type: 2, service_name: 'github' }), "Invalid integration 'github'.");
      expectError(await post({ short_name: 'helper' }), 'Username already in use');
      expectError(await post({ full_name: 'Mona Member' }), 'Name is already in use!');
    });

    it('is for members: guests and bots are refused', async () => {
      expectError(await ctx.as('gus').post('/bots', { full_name: 'Guest Bot', short_name: 'gb' }, undocumented), 'Not allowed for guest users');
      const bot = await createBot(ctx, 'mona', 'monas');
      expectError(await bot.client.post('/bots', { full_name: 'Bot Bot', short_name: 'bb' }, undocumented), 'This endpoint does not accept bot requests.');
    });

    it('follows bot_creation_policy: everyone, generic bots for admins only, admins only', async () => {
      const table: Array<[number, string, number, boolean]> = [
        [1, 'mark', 1, true],
        [1, 'mark', 2, true],
        [2, 'mark', 1, false],
        [2, 'mark', 2, true],
        [2, 'mark', 3, true],
        [2, 'adam', 1, true],
        [3, 'mark', 2, false],
        [3, 'mark', 1, false],
        [3, 'adam', 1, true],
      ];
      let n = 0;
      for (const [value, who, botType, allowed] of table) {
        await policy(value);
        const res = await ctx.as(who as 'mark').post('/bots', { full_name: `Policy ${n}`, short_name: `policy${n++}`, bot_type: botType }, undocumented);
        if (allowed) expectSuccess(res);
        else expectError(res, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      }
      await policy(1);
    });

    const postMultipart = async (parts: MultipartPart[]) => {
      const { payload, contentType } = multipartBody(parts);
      const headers = { 'content-type': contentType, authorization: authOf(ctx.seed.users.mark) };
      const res = await ctx.app.inject({ method: 'POST', url: '/api/v1/bots', headers, payload });
      return { status: res.statusCode, body: JSON.parse(res.body), headers: res.headers };
    };
    const fields = (shortName: string): MultipartPart[] => [
      { name: 'full_name', value: `${shortName} Pictured` },
      { name: 'short_name', value: shortName },
    ];

    it('takes an avatar as one uploaded file, stored before the bot is announced', async () => {
      ctx.clearEvents();
      const body = expectSuccess(await postMultipart([...fields('pictured'), imagePart(await bandedPng())]));
      const row = await ctx.services.db.selectFrom('user_profile').selectAll().where('id', '=', body.user_id).executeTakeFirstOrThrow();
      assert.equal(row.avatar_source, 'U');
      assert.equal(body.avatar_url, `/user_avatars/${ctx.seed.realm.id}/${row.id}.png?version=${row.avatar_version}`);
      for (const medium of [false, true]) assert.ok(await storageOf(ctx.services).get(avatarKey(ctx.seed.realm.id, row.id, medium)));
      const add = ctx.events.find((d) => d.event.type === 'realm_bot');
      assert.equal((add?.event.bot as { avatar_url: string }).avatar_url, body.avatar_url);
    });

    it('refuses two files, and a file that is no image, creating nothing', async () => {
      const png = await bandedPng();
      expectError(await postMultipart([...fields('twice'), imagePart(png), imagePart(png, 'b.png')]), 'You may only upload one file at a time');
      expectError(await postMultipart([...fields('notimage'), imagePart(HTML_AS_PNG)]), 'Could not decode image; did you upload an image file?', 'BAD_IMAGE');
      const made = await ctx.services.db.selectFrom('user_profile').select('id').where('email', 'in', ['twice-bot@confab.test', 'notimage-bot@confab.test']).execute();
      assert.deepEqual(made, []);
    });

    it('an incoming webhook bot may send messages and nothing else', async () => {
      const hook = await createBot(ctx, 'mark', 'incoming', { bot_type: 2 });
      expectSuccess(await hook.client.post('/messages', { type: 'stream', to: 'general', topic: 'hooks', content: 'ping' }));
      const refused = await hook.client.get('/users/me', {}, undocumented);
      expectError(refused, 'This API is not available to incoming webhook bots.', 'UNAUTHORIZED', 401);
      expectError(await hook.client.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 }, undocumented),
        'This API is not available to incoming webhook bots.', 'UNAUTHORIZED', 401);
      expectError(await hook.client.post('/register', {}, undocumented), 'This API is not available to incoming webhook bots.', 'UNAUTHORIZED', 401);
    });
  });
}
