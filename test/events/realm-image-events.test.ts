// Custom emoji and the organization's icon and logos: every event matches the reference schema,
// reaches everyone, and an earlier register state plus the events equals a fresh one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type ApiResponse, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, pngImage, postMultipart } from '../support/images.js';
import { fetchStateOf, verifyFolding } from '../support/register-state.js';

const undocumented = { undocumented: true };

for (const dialect of testDialects()) {
  describe(`custom emoji, icon and logo events [${dialect}]`, () => {
    let ctx: TestContext;
    let png: Buffer;
    before(async () => {
      ctx = await setup(dialect);
      png = await pngImage(300, 120);
    });
    after(() => ctx.close());

    const ok = (call: () => Promise<ApiResponse>) => async () => void expectSuccess(await call());
    const watchers = ['mark', 'adam', 'gus', 'welcomeBot'] as const;

    it('realm_emoji update on adding and deactivating, folded into register', async () => {
      const added = await verifyFolding(ctx, {
        watchers: [...watchers],
        action: ok(() => postMultipart(ctx, 'mark', '/realm/emoji/folded', [filePart(png)])),
      });
      assert.deepEqual(added, ['realm_emoji/update']);
      const event = ctx.events[0]!.event;
      assert.deepEqual(Object.keys(event.realm_emoji as object).length, 1);
      const removed = await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('mark').delete('/realm/emoji/folded')) });
      assert.deepEqual(removed, ['realm_emoji/update']);
      const state = await fetchStateOf(ctx, 'gus', { wanted: ['realm_emoji'] });
      assert.deepEqual(Object.values(state.realm_emoji as object).map((e) => [e.name, e.deactivated]), [['folded', true]]);
    });

    it('realm update_dict for the icon, uploaded and reset', async () => {
      const uploaded = await verifyFolding(ctx, {
        watchers: [...watchers],
        action: ok(() => postMultipart(ctx, 'adam', '/realm/icon', [filePart(png)], undocumented)),
      });
      assert.deepEqual(uploaded, ['realm/update_dict']);
      const realmId = ctx.seed.realm.id;
      assert.deepEqual(ctx.events[0]!.event, {
        type: 'realm',
        op: 'update_dict',
        property: 'icon',
        data: { icon_url: `http://confab.test/user_avatars/${realmId}/realm/icon.png?version=2`, icon_source: 'U' },
      });
      await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('adam').delete('/realm/icon', {}, undocumented)) });
      const state = await fetchStateOf(ctx, 'mark', { wanted: ['realm'] });
      assert.equal(state.realm_icon_url, `http://confab.test/user_avatars/${realmId}/realm/default_icon.png?version=3`);
      assert.equal(state.realm_icon_source, 'G');
    });

    it('realm update_dict for the logo and the night logo, uploaded and reset', async () => {
      for (const night of [false, true]) {
        const property = night ? 'night_logo' : 'logo';
        await verifyFolding(ctx, {
          watchers: [...watchers],
          action: ok(() => postMultipart(ctx, 'olivia', '/realm/logo', [filePart(png), { name: 'night', value: String(night) }], undocumented)),
        });
        assert.equal(ctx.events[0]!.event.property, property);
        let state = await fetchStateOf(ctx, 'gus', { wanted: ['realm'] });
        assert.equal(state[`realm_${property}_source`], 'U');
        assert.match(String(state[`realm_${property}_url`]), new RegExp(`/user_avatars/${ctx.seed.realm.id}/realm/${property}\\.png\\?version=2$`));
        await verifyFolding(ctx, { watchers: [...watchers], action: ok(() => ctx.as('olivia').delete('/realm/logo', { night }, undocumented)) });
        state = await fetchStateOf(ctx, 'gus', { wanted: ['realm'] });
        assert.deepEqual([state[`realm_${property}_source`], state[`realm_${property}_url`]], ['D', '']);
      }
    });

    it('refused changes send nothing', async () => {
      ctx.clearEvents();
      await postMultipart(ctx, 'mark', '/realm/icon', [filePart(png)], undocumented);
      await postMultipart(ctx, 'gus', '/realm/emoji/guest-try', [filePart(png)]);
      await ctx.as('mark').delete('/realm/emoji/nothing-here');
      assert.deepEqual(ctx.events, []);
    });
  });
}
