// The world the permission-matrix tests read: the dev organization with one stream of each kind,
// a message in each, two direct conversations, a deactivated user and a user of another
// organization; and the table notation every matrix file uses.
//
// Subscribers (beyond the seeded general, which has everyone but the guest):
//   lobby     public, the guest's stream: mark, gus
//   vault     private, history shared with subscribers: mark, mona, dora; milo added after its
//             message; maya received it and left
//   bunker    private, history protected: the same as vault
//   showcase  web-public: olivia
// Direct messages: mark -> mona, and the group mark, mona, gus.
import assert from 'node:assert/strict';
import { runSystemAction } from '../../src/actions/context.js';
import { doCreateUser } from '../../src/actions/user-create.js';
import type { StoreKind } from '../../src/db/connect.js';
import type { UserRow } from '../../src/db/schema.js';
import type { DevUserName } from '../../src/dev-seed.js';
import { Role } from '../../src/lib/roles.js';
import { ApiClient, type ApiResponse, type Params, expectSuccess } from '../support/client.js';
import { createOtherRealm, OTHER_HOST, setRealmSettings, setup, type TestContext, TEST_URL } from '../support/context.js';

export const DEV_HOST = new URL(TEST_URL).host;

/** The table columns: every active role of the dev organization, and its bot. */
export const ACTORS = ['olivia', 'adam', 'maya', 'mark', 'mona', 'milo', 'gus', 'bot'] as const;
export type Actor = (typeof ACTORS)[number];
const USER_OF: Record<Actor, DevUserName> = {
  olivia: 'olivia', adam: 'adam', maya: 'maya', mark: 'mark', mona: 'mona', milo: 'milo', gus: 'gus', bot: 'welcomeBot',
};

export const STREAMS = ['general', 'lobby', 'vault', 'bunker', 'showcase'] as const;
export type StreamKey = (typeof STREAMS)[number];
export const MESSAGES = [...STREAMS, 'dm', 'group'] as const;
export type MessageKey = (typeof MESSAGES)[number];

/** Every message's content carries this word, so one search finds all of them. */
export const SEARCH_WORD = 'quokka';

/** A client that always names the host it talks to, as each organization's users do. */
export class HostClient {
  constructor(
    private readonly api: ApiClient,
    private readonly host: string,
  ) {}
  /** `undocumented`: a route the reference document lacks (see test/support/client.ts). */
  call(method: string, path: string, params: Params = {}, undocumented = false): Promise<ApiResponse> {
    return this.api.call(method, path, params, { headers: { host: this.host }, undocumented });
  }
  get = (path: string, params?: Params) => this.call('GET', path, params);
  /** The same credentials presented to another host. */
  at = (host: string) => new HostClient(this.api, host);
  post = (path: string, params?: Params) => this.call('POST', path, params);
}

export interface Matrix {
  ctx: TestContext;
  as(actor: Actor): HostClient;
  user(actor: Actor): UserRow;
  /** The deactivated member (was on vault and bunker). */
  dora: UserRow;
  /** The other organization's owner, on their own host and on the dev host. */
  owen: UserRow;
  owenHome: HostClient;
  owenHere: HostClient;
  doraClient: HostClient;
  /** The queue Dora registered before her deactivation. */
  doraQueue: string;
  stream: Record<StreamKey, number>;
  message: Record<MessageKey, number>;
  /** The organization's role:members system group. */
  membersGroup: number;
}

export async function buildMatrix(dialect: StoreKind): Promise<Matrix> {
  const ctx = await setup(dialect, { config: { webPublicStreamsEnabled: true } });
  await setRealmSettings(ctx, { enable_spectator_access: true });
  const users = ctx.seed.users;
  const dora = await runSystemAction(ctx.services, (system) =>
    doCreateUser(system, ctx.seed.realm, { email: 'dora@confab.test', fullName: 'Dora Departed', role: Role.MEMBER }),
  );
  const { owner: owen } = await createOtherRealm(ctx, { email: 'owen@other.test', fullName: 'Owen Other' });
  const client = (user: UserRow, host: string) => new HostClient(new ApiClient(ctx.app, ApiClient.basic(user.delivery_email, user.api_key)), host);
  const as = (actor: Actor) => client(users[USER_OF[actor]], DEV_HOST);

  const create = async (actor: Actor, name: string, principals: number[], options: Params) =>
    expectSuccess(await as(actor).post('/users/me/subscriptions', { subscriptions: [{ name }], principals, ...options }));
  await create('mark', 'lobby', [users.mark.id, users.gus.id], {});
  const closed = [users.mark.id, users.mona.id, users.maya.id, dora.id];
  await create('mark', 'vault', closed, { invite_only: true, history_public_to_subscribers: true });
  await create('mark', 'bunker', closed, { invite_only: true, history_public_to_subscribers: false });
  await create('olivia', 'showcase', [users.olivia.id], { is_web_public: true });
  const streamRows = await ctx.services.db.selectFrom('stream').select(['id', 'name']).where('realm_id', '=', ctx.seed.realm.id).execute();
  const stream = Object.fromEntries(STREAMS.map((key) => [key, streamRows.find((s) => s.name === key)!.id])) as Record<StreamKey, number>;

  const send = async (actor: Actor, params: Params) => expectSuccess(await as(actor).post('/messages', params)).id as number;
  const inStream = (actor: Actor, key: StreamKey) =>
    send(actor, { type: 'stream', to: stream[key], topic: `${key} topic`, content: `${SEARCH_WORD} in ${key}` });
  const message = {
    general: await inStream('mark', 'general'),
    lobby: await inStream('gus', 'lobby'),
    vault: await inStream('mark', 'vault'),
    bunker: await inStream('mark', 'bunker'),
    showcase: await inStream('olivia', 'showcase'),
    dm: await send('mark', { type: 'direct', to: [users.mona.id], content: `${SEARCH_WORD} between two` }),
    group: await send('mark', { type: 'direct', to: [users.mona.id, users.gus.id], content: `${SEARCH_WORD} among three` }),
  };
  // Milo joins the private streams only now: shared history shows him the message, protected does not.
  for (const key of ['vault', 'bunker'] as const) {
    expectSuccess(await as('mark').post('/users/me/subscriptions', { subscriptions: [{ name: key }], principals: [users.milo.id] }));
  }
  // Maya leaves them, keeping what she received.
  expectSuccess(await as('maya').call('DELETE', '/users/me/subscriptions', { subscriptions: ['vault', 'bunker'] }));
  // Dora registers a queue while active, then is deactivated.
  const doraClient = client(dora, DEV_HOST);
  const doraQueue = expectSuccess(await doraClient.post('/register', {})).queue_id as string;
  expectSuccess(await as('olivia').call('DELETE', `/users/${dora.id}`));
  return {
    ctx,
    as,
    user: (actor) => users[USER_OF[actor]],
    dora,
    owen,
    owenHome: client(owen, OTHER_HOST),
    owenHere: client(owen, DEV_HOST),
    doraClient,
    doraQueue,
    stream,
    message,
    membersGroup: (
      await ctx.services.db.selectFrom('user_group').select('id').where('realm_id', '=', ctx.seed.realm.id).where('name', '=', 'role:members').executeTakeFirstOrThrow()
    ).id,
  };
}

// Who may open each message by id (GET /messages/{id}, its history, its read receipts, and the
// files it links): Y may, E is refused.
// The guest may not open web-public history by id unless subscribed (the reference's rule).
export const OPEN_BY_ID: Record<MessageKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    E   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' E      E    E    Y    Y    Y    E   E ',
  bunker:   ' E      E    E    Y    Y    E    E   E ',
  showcase: ' Y      Y    Y    Y    Y    Y    E   Y ',
  dm:       ' E      E    E    Y    Y    E    E   E ',
  group:    ' E      E    E    Y    Y    E    Y   E ',
};

// ---- The table notation ------------------------------------------------------------------

/** An exact error answer. */
export interface Refusal {
  status: number;
  code: string;
  msg: string;
}

export const refusal = (msg: string, code = 'BAD_REQUEST', status = 400): Refusal => ({ status, code, msg });

/**
 * One table row: a cell per actor, in ACTORS order, separated by spaces.
 *   Y  200 and the object is present
 *   -  200 and the object is absent (filtered out)
 *   E  the table's refusal (an exact error)
 */
export type Cell = 'Y' | '-' | 'E';

export function parseRow(row: string): Record<Actor, Cell> {
  const cells = row.trim().split(/\s+/);
  assert.equal(cells.length, ACTORS.length, `row "${row}" needs one cell per actor`);
  for (const cell of cells) assert.ok(['Y', '-', 'E'].includes(cell), `unknown cell "${cell}"`);
  return Object.fromEntries(ACTORS.map((actor, i) => [actor, cells[i]])) as Record<Actor, Cell>;
}

/** Asserts an error answer exactly. */
export function expectRefusal(res: ApiResponse, expected: Refusal, context: string): void {
  assert.deepEqual(
    { status: res.status, result: res.body.result, code: res.body.code, msg: res.body.msg },
    { status: expected.status, result: 'error', code: expected.code, msg: expected.msg },
    context,
  );
}

/** Asserts the outcome of one cell, given whether the answer contains the object. */
export function expectCell(res: ApiResponse, cell: Cell, present: (body: Record<string, any>) => boolean, refused: Refusal | null, context: string): void {
  if (cell === 'E') {
    assert.ok(refused, `${context}: the table has no refusal`);
    expectRefusal(res, refused, context);
    return;
  }
  assert.equal(res.status, 200, `${context}: ${JSON.stringify(res.body)}`);
  assert.equal(present(res.body), cell === 'Y', `${context}: expected ${cell === 'Y' ? 'present' : 'absent'}`);
}

/** Runs every row of a table: rows are keyed by object, each cell is one actor's request. */
export async function checkTable<K extends string>(
  m: Matrix,
  table: Record<K, string>,
  request: (client: HostClient, key: K, actor: Actor) => Promise<ApiResponse>,
  present: (body: Record<string, any>, key: K, actor: Actor) => boolean,
  refused: Refusal | ((actor: Actor) => Refusal) | null = null,
): Promise<void> {
  for (const key of Object.keys(table) as K[]) {
    const row = parseRow(table[key]);
    for (const actor of ACTORS) {
      const res = await request(m.as(actor), key, actor);
      const refusalOf = typeof refused === 'function' ? refused(actor) : refused;
      expectCell(res, row[actor], (body) => present(body, key, actor), refusalOf, `${key} as ${actor}`);
    }
  }
}

export const hasMessage = (messages: { id: number }[] | undefined, id: number) => (messages ?? []).some((msg) => msg.id === id);
