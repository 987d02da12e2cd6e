// Permission matrix, custom profile fields and administrators' account changes: every member
// reads the organization's fields; only administrators define them; people (not bots) set their
// own values; administrators change other accounts, and only owners make or unmake owners.
// Another organization's owner reaches none of it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiClient, expectSuccess, type Params } from '../support/client.js';
import { OTHER_HOST } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { type Actor, buildMatrix, checkTable, expectRefusal, type Matrix, refusal } from './matrix-fixture.js';

const ADMINS_ONLY = refusal('Must be an organization administrator', 'UNAUTHORIZED_PRINCIPAL');
const OWNERS_ONLY = refusal('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL');
const NO_BOTS = refusal('This endpoint does not accept bot requests.');
const INSUFFICIENT = refusal('Insufficient permission');
const undocumented = { undocumented: true };

//                  olivia adam maya mark mona milo gus bot
const EVERYONE = '  Y      Y    Y    Y    Y    Y    Y   Y ';
const ADMINS = '    Y      Y    E    E    E    E    E   E ';
const HUMANS = '    Y      Y    Y    Y    Y    Y    Y   E ';
const OWNERS = '    Y      E    E    E    E    E    E   E ';

for (const dialect of testDialects()) {
  describe(`permission matrix: custom profile fields and account changes [${dialect}]`, () => {
    let m: Matrix;
    let field: number;
    before(async () => {
      m = await buildMatrix(dialect);
      field = expectSuccess(await m.as('olivia').post('/realm/profile_fields', { name: 'Desk', field_type: 1 })).id;
    });
    after(() => m.ctx.close());

    const api = (actor: Actor) => m.ctx.as(actor === 'bot' ? 'welcomeBot' : (m.user(actor).email.split('@')[0] as 'adam'));
    const ok = () => true;
    /** The other organization's owner at home, on routes the reference does not document. */
    const owen = (method: string, path: string, params: Params) =>
      new ApiClient(m.ctx.app, ApiClient.basic(m.owen.delivery_email, m.owen.api_key)).call(method, path, params, { headers: { host: OTHER_HOST }, undocumented: true });

    it('GET /realm/profile_fields: everyone in the organization', async () => {
      await checkTable(m, { desk: EVERYONE }, (c) => c.get('/realm/profile_fields'), (body) => body.custom_fields.some((f: { id: number }) => f.id === field));
      const theirs = await m.owenHome.get('/realm/profile_fields');
      assert.deepEqual(theirs.body.custom_fields, []);
    });

    it('creating, changing, reordering and deleting fields: administrators', async () => {
      let n = 0;
      expectSuccess(await m.as('olivia').post('/realm/profile_fields', { name: 'Spare', field_type: 1 }));
      await checkTable(m, { create: ADMINS }, (c) => c.post('/realm/profile_fields', { name: `Field ${++n}`, field_type: 1 }), ok, ADMINS_ONLY);
      await checkTable(m, { update: ADMINS }, (_c, _k, actor) => api(actor).patch(`/realm/profile_fields/${field}`, { hint: actor }, undocumented), ok, ADMINS_ONLY);
      const ids = async () => (expectSuccess(await m.ctx.as('mark').get('/realm/profile_fields')).custom_fields as Array<{ id: number }>).map((f) => f.id);
      const all = await ids();
      await checkTable(m, { reorder: ADMINS }, (c) => c.call('PATCH', '/realm/profile_fields', { order: [...all].reverse() }), ok, ADMINS_ONLY);
      // Administrators delete one spare field each; the others try the last one left.
      const spare = all.filter((id) => id !== field);
      const victim = (actor: Actor) => (['olivia', 'adam'].includes(actor) ? spare.pop() : spare[0]);
      await checkTable(m, { remove: ADMINS }, (_c, _k, actor) => api(actor).delete(`/realm/profile_fields/${victim(actor)}`, {}, undocumented), ok, ADMINS_ONLY);
      assert.equal(spare.length, 1);
      // The other organization's owner administers only their own.
      expectRefusal(await owen('DELETE', `/realm/profile_fields/${field}`, {}), refusal(`Field id ${field} not found.`), 'owen deletes');
      assert.ok((await ids()).includes(field));
    });

    it('setting and clearing one\'s own values: people, not bots', async () => {
      await checkTable(m, { set: HUMANS }, (_c, _k, actor) => api(actor).patch('/users/me/profile_data', { data: [{ id: field, value: actor }] }, undocumented), ok, NO_BOTS);
      await checkTable(m, { clear: HUMANS }, (_c, _k, actor) => api(actor).delete('/users/me/profile_data', { data: [field] }, undocumented), ok, NO_BOTS);
      expectRefusal(await owen('PATCH', '/users/me/profile_data', { data: [{ id: field, value: 'x' }] }), refusal(`Field id ${field} not found.`), 'owen sets');
    });

    it('PATCH /users/{user_id}: administrators; owners for owner changes', async () => {
      const milo = m.user('milo').id;
      const byActor = (actor: Actor) => (['olivia', 'adam'].includes(actor) ? ADMINS_ONLY : INSUFFICIENT);
      await checkTable(m, { rename: ADMINS }, (c, _k, actor) => c.call('PATCH', `/users/${milo}`, { full_name: `Milo by ${actor}` }), ok, byActor);
      await checkTable(m, { data: ADMINS }, (c) => c.call('PATCH', `/users/${milo}`, { profile_data: [{ id: field, value: 'x' }] }), ok, byActor);
      // Making an owner and back: the role each try starts from is member again.
      const promote = async (c: { call: (method: string, path: string, params: Record<string, unknown>) => Promise<any> }, actor: Actor) => {
        const res = await c.call('PATCH', `/users/${milo}`, { role: 100 });
        if (res.status === 200) expectSuccess(await m.as(actor).call('PATCH', `/users/${milo}`, { role: 400 }));
        return res;
      };
      await checkTable(m, { owner: OWNERS }, (c, _k, actor) => promote(c, actor), ok, (actor) => (actor === 'adam' ? OWNERS_ONLY : INSUFFICIENT));
      expectRefusal(await m.owenHome.call('PATCH', `/users/${milo}`, { full_name: 'Owen Was Here' }), refusal('No such user'), 'owen renames');
    });
  });
}
