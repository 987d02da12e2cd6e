// POST /realm/icon on every store and both storage backends: administrators only, one image of
// at most 5 MiB, stored as a 100x100 PNG and served with image-only headers.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, HTML_AS_PNG, jpegWithExif, pixelBomb, pngImage, postMultipart, SVG_AS_PNG } from '../support/images.js';
import { openTestStorage, STORAGE_KINDS, type TestStorage } from '../support/storages.js';

const undocumented = { undocumented: true };
const BAD_IMAGE = 'Could not decode image; did you upload an image file?';

for (const dialect of testDialects()) {
  for (const kind of STORAGE_KINDS) {
    describe(`POST /realm/icon [${dialect}, ${kind}]`, () => {
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

      const upload = (name: DevUserName | null, parts: Parameters<typeof postMultipart>[3]) => postMultipart(ctx, name, '/realm/icon', parts, undocumented);

      it('stores the icon as a 100x100 PNG without metadata and answers its URL', async () => {
        const body = expectSuccess(await upload('adam', [filePart(await jpegWithExif(), 'icon.jpg', 'image/jpeg')]));
        const realmId = ctx.seed.realm.id;
        assert.equal(body.icon_url, `http://confab.test/user_avatars/${realmId}/realm/icon.png?version=2`);
        const res = await ctx.app.inject({ method: 'GET', url: new URL(body.icon_url).pathname + new URL(body.icon_url).search });
        assert.equal(res.statusCode, 200);
        assert.equal(res.headers['content-type'], 'image/png');
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['content-security-policy'], "default-src 'none'; sandbox");
        assert.equal(res.headers['cache-control'], 'public, max-age=3600');
        const meta = await sharp(res.rawPayload).metadata();
        assert.deepEqual([meta.format, meta.width, meta.height, meta.exif], ['png', 100, 100, undefined]);
        const settings = expectSuccess(await ctx.anonymous().get('/server_settings'));
        assert.equal(settings.realm_icon, body.icon_url);
        // A second upload is a new version.
        assert.match(expectSuccess(await upload('olivia', [filePart(await pngImage(30, 90))])).icon_url, /\?version=3$/);
      });

      it('is for administrators only; guests, members, moderators, anonymous and deactivated users are refused', async () => {
        const png = await pngImage(50, 50);
        for (const name of ['mark', 'maya', 'gus', 'welcomeBot'] as const) {
          expectError(await upload(name, [filePart(png)]), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
        }
        expectError(await upload(null, [filePart(png)]), 'Not logged in: API authentication or user session required', 'UNAUTHORIZED', 401);
        const { adam } = ctx.seed.users;
        await ctx.services.db.updateTable('user_profile').set({ is_active: 0 }).where('id', '=', adam.id).execute();
        try {
          expectError(await upload('adam', [filePart(png)]), 'Account is deactivated', 'UNAUTHORIZED', 401);
        } finally {
          await ctx.services.db.updateTable('user_profile').set({ is_active: 1 }).where('id', '=', adam.id).execute();
        }
      });

      it('refuses no file, two files, oversized, empty, lying and bomb files, leaving the icon as it was', async () => {
        const before = expectSuccess(await ctx.as('adam').post('/register', { fetch_event_types: ['realm'] })).realm_icon_url;
        const png = await pngImage(50, 50);
        expectError(await upload('adam', []), 'You must upload exactly one icon.');
        expectError(await upload('adam', [filePart(png, 'a.png'), filePart(png, 'b.png')]), 'You must upload exactly one icon.');
        expectError(await upload('adam', [filePart(Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]))]), 'Uploaded file is larger than the allowed limit of 5 MiB');
        for (const bad of [Buffer.alloc(0), HTML_AS_PNG, SVG_AS_PNG]) expectError(await upload('adam', [filePart(bad)]), BAD_IMAGE, 'BAD_IMAGE');
        expectError(await upload('adam', [filePart(pixelBomb())]), 'Image size exceeds limit.', 'BAD_IMAGE');
        assert.equal(expectSuccess(await ctx.as('adam').post('/register', { fetch_event_types: ['realm'] })).realm_icon_url, before);
      });
    });
  }
}
