// POST /realm/logo: administrators upload the day (night=false) or night (night=true) logo,
// stored as a PNG at most 800x100.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { DevUserName } from '../../src/dev-seed.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, HTML_AS_PNG, pixelBomb, pngImage, postMultipart } from '../support/images.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`POST /realm/logo [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const upload = (name: DevUserName, parts: Parameters<typeof postMultipart>[3]) => postMultipart(ctx, name, '/realm/logo', parts, undocumented);
    const night = (value: string) => ({ name: 'night', value });
    const state = async () => expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));

    it('stores the day and night logos apart, shrunk to fit 800x100', async () => {
      expectSuccess(await upload('adam', [night('false'), filePart(await pngImage(2000, 500))]));
      let body = await state();
      assert.equal(body.realm_logo_source, 'U');
      assert.equal(body.realm_night_logo_source, 'D');
      const logo = await ctx.app.inject({ method: 'GET', url: new URL(body.realm_logo_url).pathname });
      assert.equal(logo.headers['content-type'], 'image/png');
      const meta = await sharp(logo.rawPayload).metadata();
      assert.deepEqual([meta.width, meta.height], [400, 100]);
      // A small logo is not enlarged; night comes from the query string as well.
      expectSuccess(await postMultipart(ctx, 'olivia', '/realm/logo', [filePart(await pngImage(60, 20))], { undocumented: true, query: 'night=true' }));
      body = await state();
      assert.equal(body.realm_night_logo_source, 'U');
      const nightLogo = await ctx.app.inject({ method: 'GET', url: new URL(body.realm_night_logo_url).pathname });
      const nightMeta = await sharp(nightLogo.rawPayload).metadata();
      assert.deepEqual([nightMeta.width, nightMeta.height], [60, 20]);
    });

    it('is for administrators only, before anything else is checked', async () => {
      for (const name of ['mark', 'maya', 'gus'] as const) {
        expectError(await upload(name, []), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      }
    });

    it('needs night, one file, and a real image within 5 MiB', async () => {
      const png = await pngImage(50, 50);
      expectError(await upload('adam', [filePart(png)]), "Missing 'night' argument", 'REQUEST_VARIABLE_MISSING');
      expectError(await upload('adam', [night('maybe'), filePart(png)]), 'night is not valid JSON');
      expectError(await upload('adam', [night('1'), filePart(png)]), 'night is not a boolean');
      expectError(await upload('adam', [night('false')]), 'You must upload exactly one logo.');
      expectError(await upload('adam', [night('false'), filePart(Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]))]), 'Uploaded file is larger than the allowed limit of 5 MiB');
      expectError(await upload('adam', [night('false'), filePart(HTML_AS_PNG)]), 'Could not decode image; did you upload an image file?', 'BAD_IMAGE');
      expectError(await upload('adam', [night('false'), filePart(pixelBomb())]), 'Image size exceeds limit.', 'BAD_IMAGE');
    });
  });
}
