// Who can still reach a message after it moves to another stream (or topic), whatever way they
// held it before: as a subscriber of the old or new stream, through a historical row (starred,
// reacted, read while the stream was public), as a guest or a bot, or as a former subscriber.
// Each viewer is checked through every read path and the event stream, against the table below.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import type { UserRow } from '../../src/db/schema.js';
import { Role } from '../../src/lib/roles.js';
import { type ApiClient, type ApiResponse, clientFor, expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';

const VIEWERS = ['oldSub', 'newSub', 'both', 'neither', 'starred', 'reacted', 'readHist', 'guestOld', 'guestNew', 'botOld', 'formerOld', 'newStarred'] as const;
type Viewer = (typeof VIEWERS)[number];
type Kind = 'public' | 'shared' | 'protected';

/** Where each viewer stands before the move: on the old stream (at send time), on the new one, and how else they got a row. */
const STANDING: Record<Viewer, { old?: true; new?: true; historical?: 'starred' | 'reacted' | 'read'; leavesOld?: true }> = {
  oldSub: { old: true },
  newSub: { new: true },
  both: { old: true, new: true },
  neither: {},
  starred: { historical: 'starred' },
  reacted: { historical: 'reacted' },
  readHist: { historical: 'read' },
  guestOld: { old: true },
  guestNew: { new: true },
  botOld: { old: true },
  formerOld: { old: true, leavesOld: true },
  newStarred: { new: true, historical: 'starred' },
};

/*
 * Expected outcome per viewer, four letters (a dash where the answer is no):
 *   S  sees the message: GET /messages/{id}, a narrow on the new stream, GET /messages/{id}/history
 *      and adding a reaction all succeed (otherwise "Invalid message(s)" / not listed);
 *   R  still holds (or was given) a user_message row: a plain search narrow lists the message (as
 *      does a narrow on its stream, even where the viewer may no longer open it by id: someone who
 *      is not subscribed to a private stream keeps what they received there, as in the reference);
 *   D  receives a delete_message event for it at the move;
 *   H  hears of it later: a reaction and a topic rename after the move reach their event queue.
 * Historical rows are made while the old stream is public; a private old stream is made private
 * after that (changing a stream's privacy keeps rows). Topic-only moves stay in the old stream,
 * which the "new" viewers then join after the message was sent.
 */
const SCENARIOS: Array<[name: string, from: Kind, to: Kind | 'same', mode: string, expected: string[]]> = [
  //                                                              oldSub  newSub  both    neither starred reacted readHst guestOl guestNw botOld  former  newStar
  ['public -> private (shared history)', 'public', 'shared', 'change_all', ['--D-', 'S--H', 'SR-H', '----', '--D-', '--D-', '--D-', '--D-', 'S--H', '--D-', '--D-', 'SR-H']],
  ['public -> private (protected history)', 'public', 'protected', 'change_later', ['--D-', 'SR-H', 'SR-H', '----', '--D-', '--D-', '--D-', '--D-', 'SR-H', '--D-', '--D-', 'SR-H']],
  ['private (shared) -> public', 'shared', 'public', 'change_one', ['S---', 'S--H', 'SR-H', 'S---', 'SR-H', 'SR-H', 'SR-H', '--D-', 'S--H', 'S---', 'S---', 'SR-H']],
  ['private (protected) -> public', 'protected', 'public', 'change_all', ['S---', 'S--H', 'SR-H', 'S---', 'SR-H', 'SR-H', 'SR-H', '--D-', 'S--H', 'S---', 'S---', 'SR-H']],
  ['private (shared) -> private (shared)', 'shared', 'shared', 'change_all', ['--D-', 'S--H', 'SR-H', '----', '--D-', '--D-', '--D-', '--D-', 'S--H', '--D-', '--D-', 'SR-H']],
  ['private (shared) -> private (protected)', 'shared', 'protected', 'change_one', ['--D-', 'SR-H', 'SR-H', '----', '--D-', '--D-', '--D-', '--D-', 'SR-H', '--D-', '--D-', 'SR-H']],
  ['private (protected) -> private (shared)', 'protected', 'shared', 'change_later', ['--D-', 'S--H', 'SR-H', '----', '--D-', '--D-', '--D-', '--D-', 'S--H', '--D-', '--D-', 'SR-H']],
  ['private (protected) -> private (protected)', 'protected', 'protected', 'change_all', ['--D-', 'SR-H', 'SR-H', '----', '--D-', '--D-', '--D-', '--D-', 'SR-H', '--D-', '--D-', 'SR-H']],
  ['public -> public', 'public', 'public', 'change_all', ['S---', 'S--H', 'SR-H', 'S---', 'SR-H', 'SR-H', 'SR-H', '--D-', 'S--H', 'S---', 'S---', 'SR-H']],
  ['topic only, public', 'public', 'same', 'change_all', ['SR-H', 'S--H', 'SR-H', 'S---', 'SR-H', 'SR-H', 'SR-H', 'SR-H', 'S--H', 'SR-H', 'SR-H', 'SR-H']],
  ['topic only, private (shared)', 'shared', 'same', 'change_later', ['SR-H', 'S--H', 'SR-H', '----', '-R-H', '-R-H', '-R-H', 'SR-H', 'S--H', 'SR-H', '-R-H', 'SR-H']],
  ['topic only, private (protected)', 'protected', 'same', 'change_one', ['SR-H', '----', 'SR-H', '----', '-R-H', '-R-H', '-R-H', 'SR-H', '----', 'SR-H', '-R-H', 'SR-H']],
];

const privacy = (kind: Kind) => ({ is_private: kind !== 'public', history_public_to_subscribers: kind !== 'protected' });

for (const dialect of testDialects()) {
  describe(`moving a message: who keeps access [${dialect}]`, () => {
    let ctx: TestContext;
    let people: Record<Viewer | 'mover', UserRow>;
    before(async () => {
      ctx = await setup(dialect);
      const extra = (email: string, fullName: string, role: number = Role.MEMBER) =>
        runSystemAction(ctx.services, (system) => doCreateUser(system, ctx.seed.realm, { email, fullName, role, subscribeToDefaults: false }));
      const u = ctx.seed.users;
      people = {
        mover: u.olivia,
        oldSub: u.mark,
        newSub: u.mona,
        both: u.milo,
        neither: u.maya,
        starred: await extra('stella@confab.test', 'Stella Starred'),
        reacted: await extra('rex@confab.test', 'Rex Reacted'),
        readHist: await extra('rita@confab.test', 'Rita Reader'),
        guestOld: await extra('gwen@confab.test', 'Gwen Guest', Role.GUEST),
        guestNew: u.gus,
        botOld: u.welcomeBot,
        formerOld: await extra('fred@confab.test', 'Fred Former'),
        newStarred: await extra('nina@confab.test', 'Nina New'),
      };
      for (const v of VIEWERS) {
        const registered = expectSuccess(await as(v).post('/register', { event_types: ['delete_message', 'reaction', 'update_message'] }));
        queues.set(v, { id: registered.queue_id, last: registered.last_event_id });
      }
    });
    after(() => ctx.close());

    const as = (who: Viewer | 'mover'): ApiClient => clientFor(ctx.app, people[who]);
    const ids = (viewers: Viewer[]) => viewers.map((v) => people[v].id);
    const viewersWhere = (test: (v: Viewer) => boolean | undefined) => VIEWERS.filter((v) => test(v));

    /** Each viewer's own event queue, registered once and read without blocking after each step. */
    const queues = new Map<Viewer, { id: string; last: number }>();
    async function drain(v: Viewer): Promise<Array<Record<string, any>>> {
      const queue = queues.get(v)!;
      const body = expectSuccess(await as(v).get('/events', { queue_id: queue.id, last_event_id: queue.last, dont_block: true }));
      const events = body.events as Array<Record<string, any>>;
      for (const e of events) queue.last = Math.max(queue.last, e.id);
      return events.filter((e) => e.type !== 'heartbeat');
    }
    /** The viewers whose queues got an event of this type about the message since the last look. */
    async function reached(type: string, messageId: number): Promise<Set<Viewer>> {
      const out = new Set<Viewer>();
      for (const v of VIEWERS) if ((await drain(v)).some((e) => e.type === type && eventMentions(e, messageId))) out.add(v);
      return out;
    }

    async function createStream(name: string, kind: Kind, members: Viewer[]): Promise<number> {
      const principals = [people.mover.id, ...ids(members)];
      const body = { subscriptions: [{ name }], principals, invite_only: kind !== 'public', history_public_to_subscribers: kind !== 'protected' };
      expectSuccess(await as('mover').post('/users/me/subscriptions', body));
      return (await ctx.services.db.selectFrom('stream').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
    }

    /** Builds the scenario's streams and message, moves it, and returns each viewer's observed outcome. */
    async function observe(index: number, from: Kind, to: Kind | 'same', mode: string): Promise<string[]> {
      const word = `secret${index}x`;
      const oldName = `old ${index}`;
      // The old stream starts public, so that historical rows can be made; its privacy comes after.
      const oldId = await createStream(oldName, 'public', viewersWhere((v) => STANDING[v].old));
      const sent = expectSuccess(await as('mover').post('/messages', { type: 'stream', to: oldId, topic: 'plans', content: `the ${word} plan` }));
      const id = sent.id as number;
      for (const v of VIEWERS) {
        const how = STANDING[v].historical;
        if (how === 'reacted') expectSuccess(await as(v).post(`/messages/${id}/reactions`, { emoji_name: 'heart' }));
        else if (how) expectSuccess(await as(v).post('/messages/flags', { messages: [id], op: 'add', flag: how }));
        if (STANDING[v].leavesOld) expectSuccess(await as(v).delete('/users/me/subscriptions', { subscriptions: [oldName] }));
      }
      if (from !== 'public') expectSuccess(await as('mover').patch(`/streams/${oldId}`, privacy(from)));
      let newId = oldId;
      const joining = viewersWhere((v) => STANDING[v].new && !STANDING[v].old);
      if (to === 'same') expectSuccess(await as('mover').post('/users/me/subscriptions', { subscriptions: [{ name: oldName }], principals: ids(joining) }));
      else newId = await createStream(`new ${index}`, to, viewersWhere((v) => STANDING[v].new));

      for (const v of VIEWERS) await drain(v);
      const quiet = { propagate_mode: mode, send_notification_to_old_thread: false, send_notification_to_new_thread: false };
      const move = to === 'same' ? { topic: 'moved plans' } : { stream_id: newId };
      expectSuccess(await as('mover').patch(`/messages/${id}`, { ...move, ...quiet }));
      const atMove = new Map(await Promise.all(VIEWERS.map(async (v) => [v, await drain(v)] as const)));
      const deleted = new Set(VIEWERS.filter((v) => atMove.get(v)!.some((e) => e.type === 'delete_message' && eventMentions(e, id))));
      const toldOfMove = new Set(VIEWERS.filter((v) => atMove.get(v)!.some((e) => e.type === 'update_message' && eventMentions(e, id))));

      expectSuccess(await as('mover').post(`/messages/${id}/reactions`, { emoji_name: 'octopus' }));
      const heardReaction = await reached('reaction', id);
      expectSuccess(await as('mover').patch(`/messages/${id}`, { topic: 'renamed later', ...quiet }));
      const heardRename = await reached('update_message', id);

      const observed: string[] = [];
      for (const v of VIEWERS) {
        const client = as(v);
        const sees = await succeeds(client.get(`/messages/${id}`));
        const narrow = JSON.stringify([{ operator: 'stream', operand: newId }]);
        const fetch = { anchor: 'newest', num_before: 50, num_after: 0, apply_markdown: false };
        const inNarrow = listed(expectSuccess(await client.get('/messages', { ...fetch, narrow })), id);
        const searched = JSON.stringify([{ operator: 'search', operand: word }]);
        const inSearch = listed(expectSuccess(await client.get('/messages', { ...fetch, narrow: searched })), id);
        const history = await succeeds(client.get(`/messages/${id}/history`));
        const reacts = await succeeds(client.post(`/messages/${id}/reactions`, { emoji_name: 'tada' }));
        // Every read path by id agrees with GET /messages/{id}. A stream narrow lists what they may read
        // plus what they received (their rows), as the reference does for people who left a private
        // stream. The move itself is announced only to those who may read or hold the message.
        assert.deepEqual({ v, inNarrow, history, reacts }, { v, inNarrow: sees || inSearch, history: sees, reacts: sees });
        if (toldOfMove.has(v)) assert.ok(sees || inSearch, `${v} was told of the move of a message they neither read nor hold`);
        const hears = heardReaction.has(v) === heardRename.has(v) ? (heardReaction.has(v) ? 'H' : '-') : '?';
        observed.push(`${sees ? 'S' : '-'}${inSearch ? 'R' : '-'}${deleted.has(v) ? 'D' : '-'}${hears}`);
      }
      return observed;
    }

    it('moves topic preferences only for people who can read the destination', async () => {
      const oldId = await createStream('prefs old', 'public', ['oldSub', 'both']);
      const newId = await createStream('prefs new', 'shared', ['both']);
      const id = expectSuccess(await as('mover').post('/messages', { type: 'stream', to: oldId, topic: 'roadmap', content: 'next' })).id as number;
      for (const [v, policy] of [['oldSub', 1], ['both', 1], ['neither', 3]] as const) {
        expectSuccess(await as(v).post('/user_topics', { stream_id: oldId, topic: 'roadmap', visibility_policy: policy }));
      }
      ctx.clearEvents();
      expectSuccess(await as('mover').patch(`/messages/${id}`, { stream_id: newId, propagate_mode: 'change_all', send_notification_to_new_thread: false }));
      const prefs = await ctx.services.db.selectFrom('user_topic').select(['user_id', 'stream_id']).where('topic_name', '=', 'roadmap').orderBy('user_id').execute();
      assert.deepEqual(prefs, [{ user_id: people.both.id, stream_id: newId }]);
      const told = (v: Viewer) =>
        ctx.events.filter((d) => d.event.type === 'user_topic' && d.users.includes(people[v].id)).map((d) => [d.event.stream_id, d.event.visibility_policy]);
      assert.deepEqual(told('neither'), [[oldId, 0]]);
      assert.deepEqual(told('oldSub'), [[oldId, 0]]);
      assert.deepEqual(told('both'), [[oldId, 0], [newId, 1]]);
      const state = expectSuccess(await as('neither').post('/register', { fetch_event_types: ['user_topic'] }));
      assert.equal(state.user_topics.some((t: { stream_id: number }) => t.stream_id === newId), false);
    });

    SCENARIOS.forEach(([name, from, to, mode, expected], index) => {
      it(`${name} (${mode})`, async () => {
        const observed = await observe(index, from, to, mode);
        assert.deepEqual(Object.fromEntries(VIEWERS.map((v, i) => [v, observed[i]])), Object.fromEntries(VIEWERS.map((v, i) => [v, expected[i]])));
      });
    });
  });
}

function eventMentions(event: Record<string, unknown>, messageId: number): boolean {
  if (event.message_id === messageId) return true;
  return Array.isArray(event.message_ids) && event.message_ids.includes(messageId);
}

function listed(body: Record<string, any>, messageId: number): boolean {
  return (body.messages as Array<{ id: number }>).some((m) => m.id === messageId);
}

/** True on success; otherwise the answer must be exactly the reference's "no such message". */
async function succeeds(pending: Promise<ApiResponse>): Promise<boolean> {
  const res = await pending;
  if (res.body.result === 'success') {
    expectSuccess(res);
    return true;
  }
  expectError(res, 'Invalid message(s)');
  return false;
}
