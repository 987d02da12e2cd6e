// POST /users/me/avatar on every store and both storage backends: the stored images (sizes, crop,
// no metadata), the user's fields, events and their folding, and every kind of bad upload.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { avatarKey } from '../../src/actions/avatar-files.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { getUserById } from '../../src/queries/users.js';
import { BROKEN_PNG, bandedPng, gif, HTML_AS_PNG, imagePart, jpegWithExif, pngBomb, postAvatar, SVG_AS_PNG } from '../support/avatar-images.js';
import { type ApiResponse, expectError, expectSuccess } from '../support/client.js';
import { setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import type { MultipartPart } from '../support/multipart.js';
import { verifyFolding } from '../support/register-state.js';
import { openTestStorage, STORAGE_KINDS, type TestStorage } from '../support/storages.js';
import { cpuStopwatch } from '../support/cpu-time.js';

const NOT_AN_IMAGE = 'Could not decode image; did you upload an image file?';

for (const dialect of testDialects()) {
  for (const kind of STORAGE_KINDS) {
    describe(`POST /users/me/avatar [${dialect}, ${kind}]`, () => {
      let ctx: TestContext;
      let files: TestStorage;
      before(async () => {
        files = await openTestStorage(kind);
        ctx = await setup(dialect, { storage: files.storage });
      });
      after(async () => {
        await ctx.close();
        await files.close();
      });

      const upload = (name: DevUserName | null, parts: MultipartPart[]): Promise<ApiResponse> => postAvatar(ctx.app, name ? ctx.seed.users[name] : null, parts);
      const row = async (name: DevUserName) => (await getUserById(ctx.services.db, ctx.seed.realm.id, ctx.seed.users[name].id))!;
      const fetchAvatar = (name: DevUserName, url: string) => ctx.app.inject({ method: 'GET', url, headers: { authorization: `Basic ${Buffer.from(`${ctx.seed.users[name].delivery_email}:${ctx.seed.users[name].api_key}`).toString('base64')}` } });
      const spooled = () => {
        try {
          return readdirSync(files.storage.spoolDir);
        } catch {
          return [];
        }
      };

      it('stores a square 100 px and 500 px PNG without metadata, and answers the new avatar_url', async () => {
        const before = await row('mark');
        const body = expectSuccess(await upload('mark', [imagePart(await jpegWithExif(), 'me.jpg', 'image/jpeg')]));
        const after = await row('mark');
        assert.equal(after.avatar_source, 'U');
        assert.equal(after.avatar_version, before.avatar_version + 1);
        assert.deepEqual(body, { result: 'success', msg: '', avatar_url: `/user_avatars/${ctx.seed.realm.id}/${after.id}.png?version=${after.avatar_version}` });
        for (const [medium, size] of [[false, 100], [true, 500]] as const) {
          const object = await files.storage.get(avatarKey(ctx.seed.realm.id, after.id, medium));
          assert.ok(object, `stored ${size}`);
          const chunks: Buffer[] = [];
          for await (const chunk of object.body) chunks.push(chunk as Buffer);
          const meta = await sharp(Buffer.concat(chunks)).metadata();
          assert.deepEqual([meta.format, meta.width, meta.height], ['png', size, size]);
          assert.equal(meta.exif, undefined);
          assert.equal(meta.icc, undefined);
        }
        // Served at the URL it answered, as it was stored.
        const served = await fetchAvatar('mark', body.avatar_url);
        assert.equal(served.statusCode, 200);
        assert.equal(served.headers['content-type'], 'image/png');
        assert.equal((await sharp(served.rawPayload).metadata()).width, 100);
        assert.deepEqual(spooled(), []);
      });

      it('crops around the centre and accepts GIFs', async () => {
        expectSuccess(await upload('mona', [imagePart(await bandedPng(), 'bands.png')]));
        const object = (await files.storage.get(avatarKey(ctx.seed.realm.id, ctx.seed.users.mona.id)))!;
        const chunks: Buffer[] = [];
        for await (const chunk of object.body) chunks.push(chunk as Buffer);
        const { data, info } = await sharp(Buffer.concat(chunks)).raw().toBuffer({ resolveWithObject: true });
        // Green all over, but for what resampling blends in at the very edges.
        for (const [x, y] of [[3, 3], [96, 96], [50, 50], [3, 96]]) {
          const at = (y * info.width + x) * info.channels;
          const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
          assert.ok(r < 20 && g > 235 && b < 20, `pixel ${x},${y}: ${r},${g},${b}`);
        }
        expectSuccess(await upload('mona', [imagePart(await gif(), 'anim.gif', 'image/gif')]));
      });

      it('tells everyone with a realm_user update, and a bot\'s owner with realm_bot too; states fold', async () => {
        const labels = await verifyFolding(ctx, {
          watchers: ['mark', 'gus', 'olivia'],
          action: async () => void expectSuccess(await upload('mark', [imagePart(await jpegWithExif())])),
        });
        assert.deepEqual(labels, ['realm_user/update']);
        const mark = await row('mark');
        const [delivery] = ctx.events;
        const url = `/user_avatars/${ctx.seed.realm.id}/${mark.id}.png?version=${mark.avatar_version}`;
        assert.deepEqual(delivery!.event.person, {
          user_id: mark.id,
          avatar_source: 'U',
          avatar_url: url,
          avatar_url_medium: url.replace('.png?', '-medium.png?'),
          avatar_version: mark.avatar_version,
        });
        const active = await ctx.services.db.selectFrom('user_profile').select('id').where('realm_id', '=', ctx.seed.realm.id).where('is_active', '=', 1).execute();
        assert.deepEqual([...delivery!.users].sort((a, b) => a - b), active.map((u) => u.id).sort((a, b) => a - b));

        // A bot may set its own avatar (the route is not for humans only); its owner's realm_bots fold too.
        const botLabels = await verifyFolding(ctx, {
          watchers: ['olivia', 'mark'],
          action: async () => void expectSuccess(await upload('welcomeBot', [imagePart(await gif(), 'bot.gif', 'image/gif')])),
        });
        assert.deepEqual(botLabels, ['realm_user/update', 'realm_bot/update']);
        const bot = await row('welcomeBot');
        const botEvent = ctx.events[1]!;
        assert.deepEqual(botEvent.event.bot, { user_id: bot.id, avatar_url: `/user_avatars/${ctx.seed.realm.id}/${bot.id}.png?version=${bot.avatar_version}` });
        assert.ok(botEvent.users.includes(ctx.seed.users.olivia.id) && !botEvent.users.includes(ctx.seed.users.mark.id));
      });

      it('needs exactly one file', async () => {
        expectError(await upload('mark', []), 'You must upload exactly one avatar.');
        expectError(await upload('mark', [{ name: 'not_a_file', value: 'x' }]), 'You must upload exactly one avatar.');
        const image = await gif();
        expectError(await upload('mark', [imagePart(image, 'a.gif', 'image/gif'), imagePart(image, 'b.gif', 'image/gif')]), 'You must upload exactly one avatar.');
        const res = await ctx.as('mark').post('/users/me/avatar', { f1: 'plain form field' }, { undocumented: true });
        expectError(res, 'You must upload exactly one avatar.');
        assert.deepEqual(spooled(), []);
      });

      it('refuses files over the reference limit of 5 MiB, leaving nothing spooled', async () => {
        const before = await row('milo');
        const big = Buffer.concat([await jpegWithExif(), Buffer.alloc(5 * 1024 * 1024)]);
        expectError(await upload('milo', [imagePart(big, 'big.jpg', 'image/jpeg')]), 'Uploaded file is larger than the allowed limit of 5 MiB');
        assert.deepEqual(spooled(), []);
        assert.equal((await row('milo')).avatar_version, before.avatar_version);
      });

      it('refuses empty files, markup named .png, broken images and decompression bombs', async () => {
        const before = await row('milo');
        expectError(await upload('milo', [imagePart(Buffer.alloc(0))]), NOT_AN_IMAGE, 'BAD_IMAGE');
        expectError(await upload('milo', [imagePart(HTML_AS_PNG)]), NOT_AN_IMAGE, 'BAD_IMAGE');
        expectError(await upload('milo', [imagePart(SVG_AS_PNG)]), NOT_AN_IMAGE, 'BAD_IMAGE');
        expectError(await upload('milo', [imagePart(SVG_AS_PNG, 'logo.svg', 'image/svg+xml')]), NOT_AN_IMAGE, 'BAD_IMAGE');
        expectError(await upload('milo', [imagePart(BROKEN_PNG)]), NOT_AN_IMAGE, 'BAD_IMAGE');
        expectError(await upload('milo', [imagePart(Buffer.from('just some text'), 'notes.txt', 'text/plain')]), NOT_AN_IMAGE, 'BAD_IMAGE');
        const cpuMs = cpuStopwatch();
        expectError(await upload('milo', [imagePart(pngBomb())]), 'Image size exceeds limit.', 'BAD_IMAGE');
        assert.ok(cpuMs() < 2000, 'a bomb is refused from its header, not decoded');
        const after = await row('milo');
        assert.deepEqual([after.avatar_source, after.avatar_version], [before.avatar_source, before.avatar_version]);
        assert.equal(await files.storage.stat(avatarKey(ctx.seed.realm.id, after.id)), null);
        assert.deepEqual(spooled(), []);
      });

      it('lets guests set their avatar; refuses anonymous and deactivated uploaders', async () => {
        expectSuccess(await upload('gus', [imagePart(await gif(), 'g.gif', 'image/gif')]));
        expectError(await upload(null, [imagePart(await gif())]), 'Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);
        const { milo } = ctx.seed.users;
        await ctx.services.db.updateTable('user_profile').set({ is_active: 0 as never }).where('id', '=', milo.id).execute();
        try {
          expectError(await upload('milo', [imagePart(await gif())]), 'Account is deactivated', 'UNAUTHORIZED', 401);
        } finally {
          await ctx.services.db.updateTable('user_profile').set({ is_active: 1 as never }).where('id', '=', milo.id).execute();
        }
        assert.deepEqual(spooled(), []);
      });

      it('follows avatar_changes_disabled: administrators and owners only', async () => {
        await setRealmSettings(ctx, { avatar_changes_disabled: true });
        try {
          for (const name of ['mark', 'maya', 'gus'] as const) {
            expectError(await upload(name, [imagePart(await gif())]), 'Avatar changes are disabled in this organization.');
          }
          // The file count is checked first, as in the reference.
          expectError(await upload('mark', []), 'You must upload exactly one avatar.');
          for (const name of ['adam', 'olivia'] as const) expectSuccess(await upload(name, [imagePart(await gif())]));
        } finally {
          await setRealmSettings(ctx, { avatar_changes_disabled: false });
        }
        assert.deepEqual(spooled(), []);
      });
    });
  }
}
