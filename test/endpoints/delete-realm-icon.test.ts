// DELETE /realm/icon: administrators put the default icon back; it is drawn here (never fetched
// from an outside service) and served as a PNG.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, pngImage, postMultipart } from '../support/images.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`DELETE /realm/icon [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const iconState = async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
      return [body.realm_icon_url, body.realm_icon_source];
    };

    it('a new organization has the local default icon', async () => {
      const realmId = ctx.seed.realm.id;
      assert.deepEqual(await iconState(), [`http://confab.test/user_avatars/${realmId}/realm/default_icon.png?version=1`, 'G']);
      const res = await ctx.app.inject({ method: 'GET', url: `/user_avatars/${realmId}/realm/default_icon.png?version=1` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'image/png');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      const meta = await sharp(res.rawPayload).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height], ['png', 100, 100]);
    });

    it('puts the default icon back, with a new version', async () => {
      expectSuccess(await postMultipart(ctx, 'adam', '/realm/icon', [filePart(await pngImage(40, 40))], undocumented));
      const body = expectSuccess(await ctx.as('adam').delete('/realm/icon', {}, undocumented));
      const realmId = ctx.seed.realm.id;
      assert.equal(body.icon_url, `http://confab.test/user_avatars/${realmId}/realm/default_icon.png?version=3`);
      assert.deepEqual(await iconState(), [body.icon_url, 'G']);
    });

    it('is for administrators only', async () => {
      for (const name of ['mark', 'maya', 'gus'] as const) {
        expectError(await ctx.as(name).delete('/realm/icon', {}, undocumented), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      }
      expectSuccess(await ctx.as('olivia').delete('/realm/icon', {}, undocumented));
    });
  });
}
