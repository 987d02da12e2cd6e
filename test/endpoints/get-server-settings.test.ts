import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { expectSuccess } from '../support/client.js';
import { setup, type TestContext, TEST_URL } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

for (const dialect of testDialects()) {
  describe(`GET /server_settings [${dialect}]`, () => {
    let ctx: TestContext;
    before(async () => (ctx = await setup(dialect)));
    after(() => ctx.close());

    it('answers without authentication, with version twins and realm fields', async () => {
      const body = expectSuccess(await ctx.anonymous().get('/server_settings'));
      assert.equal(body.service_feature_level, 229);
      assert.equal(body.zulip_feature_level, 229);
      assert.equal(body.zulip_version, body.service_version);
      assert.equal(body.zulip_merge_base, body.service_merge_base);
      assert.equal(body.realm_name, 'Confab Dev');
      assert.equal(body.realm_uri, TEST_URL);
      assert.equal(body.realm_url, TEST_URL);
      assert.equal(body.realm_web_public_access_enabled, false);
      assert.equal(body.email_auth_enabled, true);
      assert.equal(body.require_email_format_usernames, true);
      assert.equal(body.push_notifications_enabled, false);
      assert.equal(body.is_incompatible, false);
      assert.deepEqual(body.external_authentication_methods, []);
      assert.equal(body.authentication_methods.password, true);
      assert.equal(body.authentication_methods.dev, true);
      assert.equal(body.authentication_methods['openid connect'], false);
      // The default icon is drawn by Confab itself, never fetched from an outside service.
      assert.equal(body.realm_icon, `http://confab.test/user_avatars/${ctx.seed.realm.id}/realm/default_icon.png?version=1`);
    });

    it('lists unknown parameters in ignored_parameters_unsupported', async () => {
      const body = expectSuccess(await ctx.anonymous().get('/server_settings', { foo: 'bar', other: 1 }));
      assert.deepEqual(body.ignored_parameters_unsupported, ['foo', 'other']);
    });
  });
}
