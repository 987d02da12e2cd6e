// DELETE /realm/logo: administrators put the default day (night=false) or night logo back.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, pngImage, postMultipart } from '../support/images.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`DELETE /realm/logo [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    const logos = async () => {
      const body = expectSuccess(await ctx.as('mark').post('/register', { fetch_event_types: ['realm'] }));
      return [body.realm_logo_source, body.realm_logo_url === '', body.realm_night_logo_source, body.realm_night_logo_url === ''];
    };

    it('resets only the logo it names', async () => {
      const png = await pngImage(200, 50);
      for (const night of ['false', 'true']) {
        expectSuccess(await postMultipart(ctx, 'adam', '/realm/logo', [{ name: 'night', value: night }, filePart(png)], undocumented));
      }
      assert.deepEqual(await logos(), ['U', false, 'U', false]);
      expectSuccess(await ctx.as('adam').delete('/realm/logo', { night: true }, undocumented));
      assert.deepEqual(await logos(), ['U', false, 'D', true]);
      expectSuccess(await ctx.as('adam').delete('/realm/logo', { night: false }, undocumented));
      assert.deepEqual(await logos(), ['D', true, 'D', true]);
    });

    it('is for administrators only, and then needs night', async () => {
      for (const name of ['mark', 'maya', 'gus'] as const) {
        expectError(await ctx.as(name).delete('/realm/logo', {}, undocumented), 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
      }
      expectError(await ctx.as('adam').delete('/realm/logo', {}, undocumented), "Missing 'night' argument", 'REQUEST_VARIABLE_MISSING');
    });
  });
}
