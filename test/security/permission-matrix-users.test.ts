// Permission matrix, users and per-user data: the user directory (at feature level 229 every
// member of the organization, guests included, sees every user; nobody sees another
// organization's), user groups (members and above, no bots: the reference's
// require_member_or_admin), linkifiers (the organization's own), drafts and alert words (one's
// own only), and what POST /messages/render links (streams the author may know of).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { UserRow } from '../../src/db/schema.js';
import { expectSuccess } from '../support/client.js';
import { testDialects } from '../support/dialects.js';
import { ACTORS, type Actor, buildMatrix, checkTable, expectRefusal, type Matrix, refusal, type StreamKey } from './matrix-fixture.js';

const NO_SUCH_USER = refusal('No such user');

type Target = 'olivia' | 'gus' | 'bot' | 'dora' | 'owen';

// GET /users: Y listed (Dora as inactive), - not listed.
const USER_LIST: Record<Target, string> = {
  //          olivia adam maya mark mona milo gus bot
  olivia:   ' Y      Y    Y    Y    Y    Y    Y   Y ',
  gus:      ' Y      Y    Y    Y    Y    Y    Y   Y ',
  bot:      ' Y      Y    Y    Y    Y    Y    Y   Y ',
  dora:     ' Y      Y    Y    Y    Y    Y    Y   Y ',
  owen:     ' -      -    -    -    -    -    -   - ',
};

// GET /users/{id} and GET /users/{email}. E: NO_SUCH_USER.
const USERS: Record<Target, string> = {
  //          olivia adam maya mark mona milo gus bot
  olivia:   ' Y      Y    Y    Y    Y    Y    Y   Y ',
  gus:      ' Y      Y    Y    Y    Y    Y    Y   Y ',
  bot:      ' Y      Y    Y    Y    Y    Y    Y   Y ',
  dora:     ' Y      Y    Y    Y    Y    Y    Y   Y ',
  owen:     ' E      E    E    E    E    E    E   E ',
};

// GET /users/{user_id}/status: every active human of one's own organization; bots, deactivated
// users and other organizations' users get STATUS_REFUSALS.
const STATUS: Record<'olivia' | 'gus', string> = {
  //          olivia adam maya mark mona milo gus bot
  olivia:   ' Y      Y    Y    Y    Y    Y    Y   Y ',
  gus:      ' Y      Y    Y    Y    Y    Y    Y   Y ',
};
const STATUS_REFUSALS: Array<[Target, ReturnType<typeof refusal>]> = [
  ['bot', NO_SUCH_USER],
  ['dora', refusal('User is deactivated')],
  ['owen', NO_SUCH_USER],
];

// GET /user_groups. E: the guest's and the bot's refusals below.
const GROUPS: Record<'ours' | 'theirs', string> = {
  //          olivia adam maya mark mona milo gus bot
  ours:     ' Y      Y    Y    Y    Y    Y    E   E ',
  theirs:   ' -      -    -    -    -    -    E   E ',
};
const GROUP_REFUSAL = (actor: Actor) =>
  actor === 'gus' ? refusal('Not allowed for guest users') : refusal('This endpoint does not accept bot requests.');

// GET /realm/linkifiers: the organization's own.
const LINKIFIERS: Record<'ours' | 'theirs', string> = {
  //          olivia adam maya mark mona milo gus bot
  ours:     ' Y      Y    Y    Y    Y    Y    Y   Y ',
  theirs:   ' -      -    -    -    -    -    -   - ',
};

// GET /drafts and GET /users/me/alert_words: Mark's, seen by Mark alone.
const MARKS_OWN: Record<'marks', string> = {
  //          olivia adam maya mark mona milo gus bot
  marks:    ' -      -    -    Y    -    -    -   - ',
};

// GET /realm/presence: Y the user's presence listed (each has pinged), - not listed.
const REALM_PRESENCE: Record<'olivia' | 'gus' | 'owen', string> = {
  //          olivia adam maya mark mona milo gus bot
  olivia:   ' Y      Y    Y    Y    Y    Y    Y   Y ',
  gus:      ' Y      Y    Y    Y    Y    Y    Y   Y ',
  owen:     ' -      -    -    -    -    -    -   - ',
};

// GET /users/{user_id_or_email}/presence. E: the refusal of PRESENCE_REFUSAL.
const USER_PRESENCE: Record<Target, string> = {
  //          olivia adam maya mark mona milo gus bot
  olivia:   ' Y      Y    Y    Y    Y    Y    Y   Y ',
  gus:      ' Y      Y    Y    Y    Y    Y    Y   Y ',
  bot:      ' E      E    E    E    E    E    E   E ',
  dora:     ' E      E    E    E    E    E    E   E ',
  owen:     ' E      E    E    E    E    E    E   E ',
};
const PRESENCE_REFUSAL: Record<Target, ReturnType<typeof refusal>> = {
  olivia: NO_SUCH_USER,
  gus: NO_SUCH_USER,
  bot: refusal('Presence is not supported for bot users.'),
  dora: NO_SUCH_USER,
  owen: NO_SUCH_USER,
};

// POST /messages/render of "#**name**": Y rendered as a stream link, - left as text.
const RENDER_LINK: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' Y      Y    -    Y    Y    Y    -   - ',
  bunker:   ' Y      Y    -    Y    Y    Y    -   - ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

// POST /messages/render of "#**name>name topic**": Y the topic link carries /with/<the message's
// id>, - it does not (no message id or topic existence from history one may not read).
const RENDER_TOPIC_WITH: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' -      -    -    Y    Y    Y    -   - ',
  bunker:   ' -      -    -    Y    Y    -    -   - ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

for (const dialect of testDialects()) {
  describe(`permission matrix: users and personal data [${dialect}]`, () => {
    let m: Matrix;
    let target: Record<Target, UserRow>;
    let linkifier: { ours: number; theirs: number };
    let groups: { ours: number[]; theirs: number[] };
    let draftId: number;
    before(async () => {
      m = await buildMatrix(dialect);
      target = { olivia: m.user('olivia'), gus: m.user('gus'), bot: m.user('bot'), dora: m.dora, owen: m.owen };
      const template = { url_template: 'https://tracker.example/{id}' };
      linkifier = {
        ours: expectSuccess(await m.as('olivia').post('/realm/filters', { pattern: 'OURS-(?P<id>[0-9]+)', ...template })).id,
        theirs: expectSuccess(await m.owenHome.post('/realm/filters', { pattern: 'THEIRS-(?P<id>[0-9]+)', ...template })).id,
      };
      const groupRows = await m.ctx.services.db.selectFrom('user_group').select(['id', 'realm_id']).execute();
      groups = {
        ours: groupRows.filter((g) => g.realm_id === m.ctx.seed.realm.id).map((g) => g.id),
        theirs: groupRows.filter((g) => g.realm_id === m.owen.realm_id).map((g) => g.id),
      };
      const draft = { type: 'stream', to: [m.stream.vault], topic: 'plans', content: 'a private draft' };
      [draftId] = expectSuccess(await m.as('mark').post('/drafts', { drafts: [draft] })).ids;
      expectSuccess(await m.as('mark').post('/users/me/alert_words', { alert_words: ['wombat'] }));
      for (const pinger of [m.as('olivia'), m.as('gus'), m.owenHome]) expectSuccess(await pinger.post('/users/me/presence', { status: 'active', ping_only: true }));
    });
    after(() => m.ctx.close());

    it('GET /users', async () => {
      await checkTable(m, USER_LIST, (c) => c.get('/users'), (body, key) => body.members.some((u: { user_id: number }) => u.user_id === target[key].id));
      const dora = (await m.as('gus').get('/users')).body.members.find((u: { user_id: number }) => u.user_id === m.dora.id);
      assert.equal(dora.is_active, false);
    });

    it('GET /users/{user_id}', async () => {
      await checkTable(m, USERS, (c, key) => c.get(`/users/${target[key].id}`), (body, key) => body.user?.user_id === target[key].id, NO_SUCH_USER);
    });

    it('GET /users/{user_id}/status', async () => {
      await checkTable(m, STATUS, (c, key) => c.get(`/users/${target[key].id}/status`), (body) => body.status !== undefined);
      for (const [key, refused] of STATUS_REFUSALS) {
        for (const actor of ACTORS) expectRefusal(await m.as(actor).get(`/users/${target[key].id}/status`), refused, `${key} as ${actor}`);
      }
    });

    it('GET /users/{email}', async () => {
      await checkTable(m, USERS, (c, key) => c.get(`/users/${target[key].email}`), (body, key) => body.user?.user_id === target[key].id, NO_SUCH_USER);
    });

    it('GET /user_groups', async () => {
      await checkTable(
        m,
        GROUPS,
        (c) => c.get('/user_groups'),
        (body, key) => groups[key].every((id) => body.user_groups.some((g: { id: number }) => g.id === id)),
        GROUP_REFUSAL,
      );
    });

    it('GET /realm/linkifiers', async () => {
      await checkTable(m, LINKIFIERS, (c) => c.get('/realm/linkifiers'), (body, key) => body.linkifiers.some((l: { id: number }) => l.id === linkifier[key]));
    });

    it('GET /drafts', async () => {
      await checkTable(m, MARKS_OWN, (c) => c.get('/drafts'), (body) => body.drafts.some((d: { id: number }) => d.id === draftId));
    });

    it('GET /users/me/alert_words', async () => {
      await checkTable(m, MARKS_OWN, (c) => c.get('/users/me/alert_words'), (body) => body.alert_words.includes('wombat'));
    });

    it('GET /realm/presence', async () => {
      const who = { olivia: m.user('olivia'), gus: m.user('gus'), owen: m.owen };
      await checkTable(m, REALM_PRESENCE, (c) => c.get('/realm/presence'), (body, key) => who[key].email in body.presences);
    });

    it('GET /users/{user_id_or_email}/presence', async () => {
      for (const key of Object.keys(USER_PRESENCE) as Target[]) {
        await checkTable(
          m,
          { [key]: USER_PRESENCE[key] } as Record<Target, string>,
          (c) => c.get(`/users/${target[key].id}/presence`),
          (body) => body.presence?.aggregated?.status === 'active',
          PRESENCE_REFUSAL[key],
        );
      }
    });

    it('POST /messages/render links only the streams the author may know of', async () => {
      await checkTable(
        m,
        RENDER_LINK,
        (c, key) => c.post('/messages/render', { content: `#**${key}**` }),
        (body, key) => (body.rendered as string).includes(`data-stream-id="${m.stream[key]}"`),
      );
    });

    it('POST /messages/render links a topic to its latest message only for readers of that history', async () => {
      await checkTable(
        m,
        RENDER_TOPIC_WITH,
        (c, key) => c.post('/messages/render', { content: `#**${key}>${key} topic**` }),
        (body, key) => (body.rendered as string).includes(`/with/${m.message[key]}"`),
      );
    });

    it("another organization's user knows none of these", async () => {
      for (const actor of ACTORS) {
        const user = m.user(actor);
        expectRefusal(await m.owenHome.get(`/users/${user.id}`), NO_SUCH_USER, actor);
        expectRefusal(await m.owenHome.get(`/users/${user.email}`), NO_SUCH_USER, actor);
      }
      const members = (await m.owenHome.get('/users')).body.members as { user_id: number }[];
      assert.ok(members.every((u) => u.user_id === m.owen.id || !Object.values(m.ctx.seed.users).some((d) => d.id === u.user_id)));
      assert.ok(members.every((u) => u.user_id !== m.dora.id));
      const linkifiers = (await m.owenHome.get('/realm/linkifiers')).body.linkifiers as { id: number }[];
      assert.deepEqual(linkifiers.map((l) => l.id), [linkifier.theirs]);
      const ownGroups = (await m.owenHome.get('/user_groups')).body.user_groups as { id: number }[];
      assert.deepEqual(ownGroups.map((g) => g.id).sort((a, b) => a - b), [...groups.theirs].sort((a, b) => a - b));
      assert.deepEqual((await m.owenHome.get('/drafts')).body.drafts, []);
      const rendered = (await m.owenHome.post('/messages/render', { content: '#**general** @**Mark Member**' })).body.rendered;
      assert.equal(rendered, '<p>#<strong>general</strong> @<strong>Mark Member</strong></p>');
    });
  });
}
