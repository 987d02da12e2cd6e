// Permission matrix, the organization's images: who may add custom emoji under each
// add_custom_emoji_policy, who may deactivate one, and who may change the icon and logos.
// Columns: owner, administrator, moderator, member, guest, bot. Y allowed, - refused. Another
// organization's owner is refused everywhere.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { DevUserName } from '../../src/dev-seed.js';
import { ApiClient, type ApiResponse, clientFor, expectError, expectSuccess } from '../support/client.js';
import { createOtherRealm, setRealmSettings, setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { filePart, pngImage, postMultipart } from '../support/images.js';
import { multipartBody } from '../support/multipart.js';

const ACTORS = ['olivia', 'adam', 'maya', 'mark', 'gus', 'welcomeBot'] as const satisfies readonly DevUserName[];
const undocumented = { undocumented: true };

const row = (cells: string) => Object.fromEntries(ACTORS.map((actor, i) => [actor, cells.trim().split(/\s+/)[i] === 'Y'])) as Record<(typeof ACTORS)[number], boolean>;

const ADD_EMOJI: Array<[policy: number, label: string, cells: string]> = [
  [1, 'members', '                Y Y Y Y - Y'],
  [2, 'administrators', '         Y Y - - - -'],
  [3, 'full members (all new)', ' Y Y Y - - -'],
  [4, 'moderators', '             Y Y Y - - -'],
];
const ADMINS_ONLY = row('Y Y - - - -');

for (const dialect of testDialects()) {
  describe(`permission matrix: custom emoji, icon and logo [${dialect}]`, () => {
    let ctx: TestContext;
    let png: Buffer;
    let serial = 0;
    before(async () => {
      ctx = await setup(dialect);
      png = await pngImage(20, 20);
    });
    after(() => ctx.close());

    const expectCell = (res: ApiResponse, allowed: boolean, refusal: string, code: string, context: string) => {
      if (allowed) assert.equal(res.body.result, 'success', `${context}: ${JSON.stringify(res.body)}`);
      else assert.deepEqual([res.status, res.body.msg, res.body.code], [400, refusal, code], context);
    };

    for (const [policy, label, cells] of ADD_EMOJI) {
      it(`adding custom emoji, add_custom_emoji_policy = ${label}`, async () => {
        // Everyone was seeded today, so a waiting period leaves every member new.
        await setRealmSettings(ctx, { add_custom_emoji_policy: policy, waiting_period_threshold: 10 });
        for (const [actor, allowed] of Object.entries(row(cells))) {
          const res = await postMultipart(ctx, actor as DevUserName, `/realm/emoji/m${serial++}`, [filePart(png)]);
          const refusal = actor === 'gus' ? 'Not allowed for guest users' : 'Insufficient permission';
          expectCell(res, allowed, refusal, 'BAD_REQUEST', `${actor}, policy ${policy}`);
        }
      });
    }

    it('deactivating custom emoji: administrators and the author (mona) only', async () => {
      await setRealmSettings(ctx, { add_custom_emoji_policy: 1 });
      for (const [actor, allowed] of Object.entries(ADMINS_ONLY)) {
        const name = `byMona${serial++}`.toLowerCase();
        expectSuccess(await postMultipart(ctx, 'mona', `/realm/emoji/${name}`, [filePart(png)]));
        const res = await ctx.as(actor as DevUserName).delete(`/realm/emoji/${name}`);
        expectCell(res, allowed, 'Must be an organization administrator or emoji author', 'BAD_REQUEST', actor);
      }
      expectSuccess(await postMultipart(ctx, 'mona', '/realm/emoji/monas-own', [filePart(png)]));
      expectSuccess(await ctx.as('mona').delete('/realm/emoji/monas-own'));
    });

    it('the icon and the logos: administrators only', async () => {
      for (const [actor, allowed] of Object.entries(ADMINS_ONLY)) {
        const name = actor as DevUserName;
        const calls: Array<[string, () => Promise<ApiResponse>]> = [
          ['POST /realm/icon', () => postMultipart(ctx, name, '/realm/icon', [filePart(png)], undocumented)],
          ['DELETE /realm/icon', () => ctx.as(name).delete('/realm/icon', {}, undocumented)],
          ['POST /realm/logo', () => postMultipart(ctx, name, '/realm/logo', [{ name: 'night', value: 'true' }, filePart(png)], undocumented)],
          ['DELETE /realm/logo', () => ctx.as(name).delete('/realm/logo', { night: true }, undocumented)],
        ];
        for (const [what, call] of calls) expectCell(await call(), allowed, 'Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL', `${actor} ${what}`);
      }
    });

    it("another organization's owner reaches none of it with their credentials", async () => {
      const { owner } = await createOtherRealm(ctx, { email: 'owner@other.test', fullName: 'Other Owner' });
      const elsewhere = clientFor(ctx.app, owner);
      const refused = ['Account is not associated with this subdomain', 'UNAUTHORIZED', 401] as const;
      expectError(await elsewhere.delete('/realm/icon', {}, undocumented), ...refused);
      expectError(await elsewhere.delete('/realm/logo', { night: false }, undocumented), ...refused);
      expectError(await elsewhere.delete('/realm/emoji/m0'), ...refused);
      const { payload, contentType } = multipartBody([filePart(png)]);
      for (const url of ['/api/v1/realm/emoji/sneaky', '/api/v1/realm/icon', '/api/v1/realm/logo?night=false']) {
        const res = await ctx.app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType, authorization: ApiClient.basic(owner.delivery_email, owner.api_key) } });
        assert.deepEqual([res.statusCode, JSON.parse(res.body).msg], [401, refused[0]], url);
      }
    });
  });
}
