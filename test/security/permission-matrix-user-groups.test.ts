// Permission matrix, user groups: reading a group's members and subgroups is for every member of
// the organization (no guests, no bots: the reference's require_member_or_admin); changing groups
// needs the realm's user_group_edit_policy, and then, for an existing group, a moderator or above
// or one of its direct members. System groups are never changed; another organization's groups
// are unknown.
import { after, before, describe, it } from 'node:test';
import { type ApiResponse, expectSuccess } from '../support/client.js';
import { setRealmSettings } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { type Actor, buildMatrix, checkTable, type HostClient, type Matrix, type Refusal, refusal } from './matrix-fixture.js';

type GroupKey = 'crew' | 'system' | 'theirs';

const PEOPLE_ONLY = (actor: Actor) =>
  actor === 'gus' ? refusal('Not allowed for guest users') : actor === 'bot' ? refusal('This endpoint does not accept bot requests.') : null;
const INVALID_GROUP = refusal('Invalid user group');
const INSUFFICIENT = refusal('Insufficient permission');

// GET /user_groups/{id}/members, /members/{user_id} and /subgroups. E: PEOPLE_ONLY, else Invalid user group.
const READ: Record<GroupKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  crew:     ' Y      Y    Y    Y    Y    Y    E   E ',
  system:   ' Y      Y    Y    Y    Y    Y    E   E ',
  theirs:   ' E      E    E    E    E    E    E   E ',
};

// PATCH /user_groups/{id} (a new description). Mona is crew's only direct member. E: PEOPLE_ONLY,
// else Invalid user group (theirs) or Insufficient permission.
const EDIT: Record<GroupKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  crew:     ' Y      Y    Y    E    Y    E    E   E ',
  system:   ' E      E    E    E    E    E    E   E ',
  theirs:   ' E      E    E    E    E    E    E   E ',
};

// POST /user_groups/create under each user_group_edit_policy. E: PEOPLE_ONLY, else Insufficient permission.
const CREATE: Record<'members' | 'admins' | 'moderators', string> = {
  //            olivia adam maya mark mona milo gus bot
  members:    ' Y      Y    Y    Y    Y    Y    E   E ',
  moderators: ' Y      Y    Y    E    E    E    E   E ',
  admins:     ' Y      Y    E    E    E    E    E   E ',
};
const POLICY = { members: 1, admins: 2, moderators: 4 } as const;

for (const dialect of testDialects()) {
  describe(`permission matrix: user groups [${dialect}]`, () => {
    let m: Matrix;
    let group: Record<GroupKey, number>;
    before(async () => {
      m = await buildMatrix(dialect);
      const crew = expectSuccess(await m.as('olivia').post('/user_groups/create', { name: 'crew', description: '', members: [m.user('mona').id] }));
      const theirs = expectSuccess(await m.owenHome.post('/user_groups/create', { name: 'theirs', description: '' }));
      group = { crew: crew.group_id, system: m.membersGroup, theirs: theirs.group_id };
    });
    after(() => m.ctx.close());

    const readRefusal = () => (actor: Actor) => PEOPLE_ONLY(actor) ?? INVALID_GROUP;
    const editRefusal = (key: GroupKey) => (actor: Actor) => PEOPLE_ONLY(actor) ?? (key === 'theirs' ? INVALID_GROUP : INSUFFICIENT);
    const succeeded = (body: Record<string, any>) => body.result === 'success';
    /** Each row of a table on its own, since the refusal depends on the row. */
    async function eachRow(
      table: Record<GroupKey, string>,
      request: (c: HostClient, key: GroupKey, actor: Actor) => Promise<ApiResponse>,
      refused: (key: GroupKey) => (actor: Actor) => Refusal,
    ): Promise<void> {
      for (const key of Object.keys(table) as GroupKey[]) {
        const row: Record<string, string> = { [key]: table[key] };
        await checkTable(m, row, (c, _key, actor) => request(c, key, actor), succeeded, refused(key));
      }
    }

    it('GET /user_groups/{user_group_id}/members', async () => {
      await eachRow(READ, (c, key) => c.get(`/user_groups/${group[key]}/members`), readRefusal);
    });

    it('GET /user_groups/{user_group_id}/members/{user_id}', async () => {
      await eachRow(READ, (c, key) => c.get(`/user_groups/${group[key]}/members/${m.user('mark').id}`), readRefusal);
    });

    it('GET /user_groups/{user_group_id}/subgroups', async () => {
      await eachRow(READ, (c, key) => c.get(`/user_groups/${group[key]}/subgroups`), readRefusal);
    });

    it('PATCH /user_groups/{user_group_id}', async () => {
      await eachRow(EDIT, (c, key, actor) => c.call('PATCH', `/user_groups/${group[key]}`, { description: `edited by ${actor}` }), editRefusal);
    });

    it('POST /user_groups/{user_group_id}/members', async () => {
      // Adding and deleting in one request leaves the group as it was, so every cell starts alike.
      const mark = m.user('mark').id;
      await eachRow(EDIT, (c, key) => c.post(`/user_groups/${group[key]}/members`, { add: [mark], delete: [mark] }), editRefusal);
    });

    it('POST /user_groups/{user_group_id}/subgroups', async () => {
      const sub = (key: GroupKey) => (key === 'crew' ? m.membersGroup : group.crew);
      await eachRow(EDIT, (c, key) => c.post(`/user_groups/${group[key]}/subgroups`, { add: [sub(key)], delete: [sub(key)] }), editRefusal);
    });

    it('DELETE /user_groups/{user_group_id}', async () => {
      // A fresh crew (Mona its one member) for each actor, so that a delete leaves the next cell its own group.
      const target = async (key: GroupKey, actor: Actor) => {
        if (key !== 'crew') return group[key];
        const made = await m.as('olivia').post('/user_groups/create', { name: `crew for ${actor}`, description: '', members: [m.user('mona').id] });
        return expectSuccess(made).group_id as number;
      };
      // The reference document (10.2) has deactivation instead of DELETE: unchecked against it.
      await eachRow(EDIT, async (c, key, actor) => c.call('DELETE', `/user_groups/${await target(key, actor)}`, {}, true), editRefusal);
    });

    it('POST /user_groups/create', async () => {
      for (const policy of Object.keys(CREATE) as Array<keyof typeof CREATE>) {
        await setRealmSettings(m.ctx, { user_group_edit_policy: POLICY[policy] });
        const row: Record<string, string> = { [policy]: CREATE[policy] };
        const create = (c: HostClient, _key: string, actor: Actor) => c.post('/user_groups/create', { name: `${policy} ${actor}`, description: '' });
        await checkTable(m, row, create, succeeded, (actor) => PEOPLE_ONLY(actor) ?? INSUFFICIENT);
      }
      await setRealmSettings(m.ctx, { user_group_edit_policy: POLICY.members });
    });
  });
}
