// Permission matrix, event polls over real connections: plain polls are answered straight from
// the socket with remembered credentials (src/http/raw-polls.ts), so the credential rows of the
// matrix are checked on that path too: a user deactivated after polling, and credentials taken
// to another organization's host, get the same 401 as on every other route.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ApiClient, expectSuccess } from '../support/client.js';
import { OTHER_HOST, createOtherRealm, setup, type TestContext } from '../support/context.js';
import { rawRequest } from '../support/raw-http.js';
import { DEV_HOST } from './matrix-fixture.js';

interface Answer {
  status: number;
  /** Answered by the socket path (it capitalizes header names; Node's server does not). */
  raw: boolean;
  wwwAuthenticate: string | undefined;
  body: Record<string, any>;
}

/** Sends one plain poll as the first request of a new connection and reads its answer. */
async function rawPoll(port: number, host: string, authorization: string, queueId: string): Promise<Answer> {
  const answer = await rawRequest(
    port,
    `GET /api/v1/events?queue_id=${queueId}&last_event_id=-1&dont_block=true HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${authorization}\r\n\r\n`,
  );
  const wwwAuthenticate = /\r\nwww-authenticate: ([^\r]*)/i.exec(answer.head)?.[1];
  return { status: answer.status, raw: answer.raw, wwwAuthenticate, body: answer.body };
}

const pick = (answer: Answer) => ({ status: answer.status, raw: answer.raw });

function expect401(answer: Answer, msg: string): void {
  assert.deepEqual(
    { status: answer.status, code: answer.body.code, msg: answer.body.msg, header: answer.wwwAuthenticate },
    { status: 401, code: 'UNAUTHORIZED', msg, header: 'Basic realm="zulip"' },
  );
}

describe('permission matrix: event polls on the socket path', () => {
  let ctx: TestContext;
  let port: number;
  before(async () => {
    ctx = await setup('sqlite');
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    port = (ctx.app.server.address() as AddressInfo).port;
  });
  after(() => ctx.close());

  it('a user deactivated after polling gets 401 on the next poll', async () => {
    const { milo } = ctx.seed.users;
    const auth = ApiClient.basic(milo.delivery_email, milo.api_key);
    const queueId = expectSuccess(await ctx.as('milo').post('/register', {})).queue_id;
    assert.deepEqual(pick(await rawPoll(port, DEV_HOST, auth, queueId)), { status: 200, raw: true });
    expectSuccess(await ctx.as('olivia').delete(`/users/${milo.id}`));
    expect401(await rawPoll(port, DEV_HOST, auth, queueId), 'Account is deactivated');
  });

  it('credentials that polled on their own host get 401 on another organization\'s host', async () => {
    const { owner: owen } = await createOtherRealm(ctx, { email: 'owen@other.test', fullName: 'Owen Other' });
    const { mona } = ctx.seed.users;
    const monaAuth = ApiClient.basic(mona.delivery_email, mona.api_key);
    const owenAuth = ApiClient.basic(owen.delivery_email, owen.api_key);
    const monaQueue = expectSuccess(await ctx.as('mona').post('/register', {}, { headers: { host: DEV_HOST } })).queue_id;
    const owenQueue = expectSuccess(await new ApiClient(ctx.app, owenAuth).post('/register', {}, { headers: { host: OTHER_HOST } })).queue_id;
    assert.deepEqual(pick(await rawPoll(port, DEV_HOST, monaAuth, monaQueue)), { status: 200, raw: true });
    assert.deepEqual(pick(await rawPoll(port, OTHER_HOST, owenAuth, owenQueue)), { status: 200, raw: true });
    expect401(await rawPoll(port, OTHER_HOST, monaAuth, monaQueue), 'Account is not associated with this subdomain');
    expect401(await rawPoll(port, DEV_HOST, owenAuth, owenQueue), 'Account is not associated with this subdomain');
  });
});
