// Permission matrix, streams: which streams each actor may list, look up and read the
// subscribers of. Expected outcomes follow the reference's access_stream_by_id with
// allow_realm_admin (administrators see private streams' metadata, not their messages), its
// guest rule (guests see only streams they are on, plus web-public ones by id), and
// subscriber lists that leave out deactivated users. Maya (the moderator) left vault and bunker.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../support/dialects.js';
import {
  type Actor,
  buildMatrix,
  checkTable,
  expectRefusal,
  type Matrix,
  parseRow,
  refusal,
  type StreamKey,
  STREAMS,
} from './matrix-fixture.js';

const INVALID_CHANNEL = refusal('Invalid channel ID');
const NOT_AUTHORIZED = refusal('User not authorized for this query');

// GET /streams with its defaults (public and subscribed streams). Y listed, - not listed.
const LIST: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' -      -    -    Y    Y    Y    -   - ',
  bunker:   ' -      -    -    Y    Y    Y    -   - ',
  showcase: ' Y      Y    Y    Y    Y    Y    -   Y ',
};

// GET /streams?include_all_active=true: administrators only. E: NOT_AUTHORIZED.
const LIST_ALL: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    E    E    E    E    E   E ',
  lobby:    ' Y      Y    E    E    E    E    E   E ',
  vault:    ' Y      Y    E    E    E    E    E   E ',
  bunker:   ' Y      Y    E    E    E    E    E   E ',
  showcase: ' Y      Y    E    E    E    E    E   E ',
};

// GET /streams/{id}, GET /streams/{id}/members and GET /streams/{id}/email_address. E: INVALID_CHANNEL.
const BY_ID: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    E   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' Y      Y    E    Y    Y    Y    E   E ',
  bunker:   ' Y      Y    E    Y    Y    Y    E   E ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

// GET /users/me/{id}/topics, GET /get_stream_id and GET /users/{user_id}/subscriptions/{id}:
// content access, the reference's access_stream_by_id without the administrators' exception.
// E: INVALID_CHANNEL (by name: "Invalid channel name '<name>'").
const CONTENT: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    E   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' E      E    E    Y    Y    Y    E   E ',
  bunker:   ' E      E    E    Y    Y    Y    E   E ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

// GET /users/me/{id}/topics: whether the stream's one topic is listed. Milo joined bunker
// (protected history) after its message, so its topic is not his to see.
const TOPICS: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    E   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' E      E    E    Y    Y    Y    E   E ',
  bunker:   ' E      E    E    Y    Y    -    E   E ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

// GET /users/me/subscriptions: one's own subscriptions only.
const SUBSCRIPTIONS: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' -      -    -    Y    -    -    Y   - ',
  vault:    ' -      -    -    Y    Y    Y    -   - ',
  bunker:   ' -      -    -    Y    Y    Y    -   - ',
  showcase: ' Y      -    -    -    -    -    -   - ',
};

/** The active subscribers each stream's member list shows (Dora, deactivated, never). */
const SUBSCRIBERS: Record<StreamKey, Actor[]> = {
  general: ['olivia', 'adam', 'maya', 'mark', 'mona', 'milo', 'bot'],
  lobby: ['mark', 'gus'],
  vault: ['mark', 'mona', 'milo'],
  bunker: ['mark', 'mona', 'milo'],
  showcase: ['olivia'],
};

const listed = (body: Record<string, any>, id: number) => (body.streams ?? []).some((s: { stream_id: number }) => s.stream_id === id);

for (const dialect of testDialects()) {
  describe(`permission matrix: streams [${dialect}]`, () => {
    let m: Matrix;
    before(async () => (m = await buildMatrix(dialect)));
    after(() => m.ctx.close());

    const subscriberIds = (key: StreamKey) => SUBSCRIBERS[key].map((actor) => m.user(actor).id).sort((a, b) => a - b);

    it('GET /streams', async () => {
      await checkTable(m, LIST, (c) => c.get('/streams'), (body, key) => listed(body, m.stream[key]));
    });

    it('GET /streams with include_web_public adds the web-public stream for the guest', async () => {
      const body = (await m.as('gus').get('/streams', { include_web_public: true })).body;
      assert.deepEqual(
        STREAMS.filter((key) => listed(body, m.stream[key])),
        ['lobby', 'showcase'],
      );
    });

    it('GET /streams with include_all_active', async () => {
      await checkTable(m, LIST_ALL, (c) => c.get('/streams', { include_all_active: true }), (body, key) => listed(body, m.stream[key]), NOT_AUTHORIZED);
    });

    it('GET /streams/{stream_id}', async () => {
      await checkTable(m, BY_ID, (c, key) => c.get(`/streams/${m.stream[key]}`), (body, key) => body.stream?.stream_id === m.stream[key], INVALID_CHANNEL);
    });

    it('GET /streams/{stream_id}/members lists active subscribers only', async () => {
      await checkTable(
        m,
        BY_ID,
        (c, key) => c.get(`/streams/${m.stream[key]}/members`),
        (body, key) => {
          assert.deepEqual([...body.subscribers].sort((a: number, b: number) => a - b), subscriberIds(key), key);
          return true;
        },
        INVALID_CHANNEL,
      );
    });

    it('GET /streams/{stream_id}/email_address', async () => {
      await checkTable(m, BY_ID, (c, key) => c.get(`/streams/${m.stream[key]}/email_address`), (body) => body.email === '', INVALID_CHANNEL);
    });

    it('GET /users/me/subscriptions, with the subscribers of each', async () => {
      await checkTable(
        m,
        SUBSCRIPTIONS,
        (c) => c.get('/users/me/subscriptions', { include_subscribers: true }),
        (body, key) => {
          const sub = body.subscriptions.find((s: { stream_id: number }) => s.stream_id === m.stream[key]);
          if (sub) assert.deepEqual([...sub.subscribers].sort((a: number, b: number) => a - b), subscriberIds(key), key);
          return sub !== undefined;
        },
      );
    });

    it('GET /users/me/{stream_id}/topics', async () => {
      await checkTable(
        m,
        TOPICS,
        (c, key) => c.get(`/users/me/${m.stream[key]}/topics`),
        (body, key) => body.topics.some((t: { name: string }) => t.name === `${key} topic`),
        INVALID_CHANNEL,
      );
    });

    it('GET /get_stream_id', async () => {
      for (const key of STREAMS) {
        await checkTable(
          m,
          { [key]: CONTENT[key] } as Record<StreamKey, string>,
          (c) => c.get('/get_stream_id', { stream: key }),
          (body) => body.stream_id === m.stream[key],
          refusal(`Invalid channel name '${key}'`),
        );
      }
    });

    it('GET /users/{user_id}/subscriptions/{stream_id}', async () => {
      // Whether Mark is on each stream, as his own subscription list shows it.
      await checkTable(
        m,
        CONTENT,
        (c, key) => c.get(`/users/${m.user('mark').id}/subscriptions/${m.stream[key]}`),
        (body, key) => body.is_subscribed === (parseRow(SUBSCRIPTIONS[key]).mark === 'Y'),
        INVALID_CHANNEL,
      );
    });

    it("another organization's user knows none of these streams", async () => {
      for (const key of STREAMS) {
        expectRefusal(await m.owenHome.get(`/streams/${m.stream[key]}`), INVALID_CHANNEL, key);
        expectRefusal(await m.owenHome.get(`/streams/${m.stream[key]}/members`), INVALID_CHANNEL, key);
      }
      const body = (await m.owenHome.get('/streams', { include_web_public: true })).body;
      assert.deepEqual(body.streams, []);
      assert.deepEqual((await m.owenHome.get('/users/me/subscriptions')).body.subscriptions, []);
      for (const key of STREAMS) {
        expectRefusal(await m.owenHome.get(`/users/me/${m.stream[key]}/topics`), INVALID_CHANNEL, key);
        expectRefusal(await m.owenHome.get('/get_stream_id', { stream: key }), refusal(`Invalid channel name '${key}'`), key);
        expectRefusal(await m.owenHome.get(`/users/${m.user('mark').id}/subscriptions/${m.stream[key]}`), refusal('No such user'), key);
      }
    });
  });
}
