// Permission matrix, messages: who reads which message through GET /messages/{id}, its edit
// history, and GET /messages under each kind of narrow. Expected outcomes follow the reference's
// has_message_access (by id) and can_access_stream_history (channel narrows): a narrow never
// errors for a stream one may not read, it only leaves out what one never received. Maya (the
// moderator) received the vault and bunker messages and then left both streams: she keeps them
// in her feed and narrows, but may no longer open them by id.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setRealmSettings } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import {
  type Actor,
  buildMatrix,
  checkTable,
  expectRefusal,
  hasMessage,
  type HostClient,
  type Matrix,
  type MessageKey,
  MESSAGES,
  OPEN_BY_ID,
  refusal,
  SEARCH_WORD,
  type StreamKey,
} from './matrix-fixture.js';

const INVALID_MESSAGE = refusal('Invalid message(s)');

// GET /messages/{id}, its history and its read receipts: the table of who may open each message
// by id (Y: 200 with the message; E: INVALID_MESSAGE).
const BY_ID = OPEN_BY_ID;

// GET /messages, narrow [channel, id]: Y present, - absent (no error for a stream one cannot read).
const CHANNEL_NARROW: Record<StreamKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' -      -    Y    Y    Y    Y    -   - ',
  bunker:   ' -      -    Y    Y    Y    -    -   - ',
  showcase: ' Y      Y    Y    Y    Y    Y    Y   Y ',
};

// GET /messages, narrow [search, word] or [id, message id] alone: only what each actor received.
const SEARCH: Record<MessageKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' -      -    -    Y    -    -    Y   - ',
  vault:    ' -      -    Y    Y    Y    -    -   - ',
  bunker:   ' -      -    Y    Y    Y    -    -   - ',
  showcase: ' Y      -    -    -    -    -    -   - ',
  dm:       ' -      -    -    Y    Y    -    -   - ',
  group:    ' -      -    -    Y    Y    -    Y   - ',
};

// GET /messages, narrow [channels, public]: public history for those who may browse it.
const PUBLIC_CHANNELS: Record<MessageKey, string> = {
  //          olivia adam maya mark mona milo gus bot
  general:  ' Y      Y    Y    Y    Y    Y    -   Y ',
  lobby:    ' Y      Y    Y    Y    Y    Y    Y   Y ',
  vault:    ' -      -    -    -    -    -    -   - ',
  bunker:   ' -      -    -    -    -    -    -   - ',
  showcase: ' Y      Y    Y    Y    Y    Y    -   Y ',
  dm:       ' -      -    -    -    -    -    -   - ',
  group:    ' -      -    -    -    -    -    -   - ',
};

// GET /messages, narrow [is, dm] and the combined feed without a narrow.
const DM_NARROW: Record<'dm' | 'group', string> = {
  //          olivia adam maya mark mona milo gus bot
  dm:       ' -      -    -    Y    Y    -    -   - ',
  group:    ' -      -    -    Y    Y    -    Y   - ',
};

const fetch = (client: HostClient, narrow: unknown[]) =>
  client.get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });

for (const dialect of testDialects()) {
  describe(`permission matrix: messages [${dialect}]`, () => {
    let m: Matrix;
    before(async () => (m = await buildMatrix(dialect)));
    after(() => m.ctx.close());

    const present = (body: Record<string, any>, key: MessageKey) => hasMessage(body.messages, m.message[key]);

    it('GET /messages/{message_id}', async () => {
      await checkTable(m, BY_ID, (c, key) => c.get(`/messages/${m.message[key]}`), (body, key) => body.message?.id === m.message[key], INVALID_MESSAGE);
    });

    it('GET /messages/{message_id}/history', async () => {
      await checkTable(m, BY_ID, (c, key) => c.get(`/messages/${m.message[key]}/history`), (body) => body.message_history?.length === 1, INVALID_MESSAGE);
    });

    it('GET /messages/{message_id}/read_receipts', async () => {
      await setRealmSettings(m.ctx, { enable_read_receipts: true });
      await checkTable(m, BY_ID, (c, key) => c.get(`/messages/${m.message[key]}/read_receipts`), (body) => Array.isArray(body.user_ids), INVALID_MESSAGE);
    });

    it('GET /messages narrowed to each channel', async () => {
      await checkTable(m, CHANNEL_NARROW, (c, key) => fetch(c, [{ operator: 'channel', operand: m.stream[key] }]), (body, key) => present(body, key));
    });

    it('GET /messages narrowed to a channel and a search', async () => {
      await checkTable(
        m,
        CHANNEL_NARROW,
        (c, key) => fetch(c, [{ operator: 'channel', operand: m.stream[key] }, { operator: 'search', operand: SEARCH_WORD }]),
        (body, key) => present(body, key),
      );
    });

    it('GET /messages searching everything one has', async () => {
      await checkTable(m, SEARCH, (c) => fetch(c, [{ operator: 'search', operand: SEARCH_WORD }]), (body, key) => present(body, key));
    });

    it('GET /messages narrowed to one message id', async () => {
      await checkTable(m, SEARCH, (c, key) => fetch(c, [{ operator: 'id', operand: m.message[key] }]), (body, key) => present(body, key));
    });

    it('GET /messages in the combined feed', async () => {
      await checkTable(m, SEARCH, (c) => fetch(c, []), (body, key) => present(body, key));
    });

    it('GET /messages narrowed to public channels', async () => {
      await checkTable(m, PUBLIC_CHANNELS, (c) => fetch(c, [{ operator: 'channels', operand: 'public' }]), (body, key) => present(body, key));
    });

    it('GET /messages narrowed to direct messages', async () => {
      await checkTable(m, DM_NARROW, (c) => fetch(c, [{ operator: 'is', operand: 'dm' }]), (body, key) => present(body, key));
      const withMark = (c: HostClient, actor: Actor) =>
        fetch(c, [{ operator: 'dm-including', operand: actor === 'mark' ? m.user('mona').id : m.user('mark').id }]);
      await checkTable(m, DM_NARROW, (c, _key, actor) => withMark(c, actor), (body, key) => present(body, key));
    });

    it('GET /messages/matches_narrow answers only what one received', async () => {
      const ask = (c: HostClient, key: MessageKey, narrow: unknown[]) => c.get('/messages/matches_narrow', { msg_ids: [m.message[key]], narrow });
      const matched = (body: Record<string, any>, key: MessageKey) => String(m.message[key]) in (body.messages ?? {});
      await checkTable(m, SEARCH, (c, key) => ask(c, key, [{ operator: 'search', operand: SEARCH_WORD }]), (body, key) => matched(body, key));
      await checkTable(m, SEARCH, (c, key) => ask(c, key, []), (body, key) => matched(body, key));
      for (const key of MESSAGES) assert.deepEqual((await ask(m.owenHome, key, [])).body.messages, {}, key);
    });

    it("another organization's user knows none of these messages", async () => {
      for (const key of MESSAGES) {
        expectRefusal(await m.owenHome.get(`/messages/${m.message[key]}`), INVALID_MESSAGE, key);
        expectRefusal(await m.owenHome.get(`/messages/${m.message[key]}/history`), INVALID_MESSAGE, key);
      }
      for (const narrow of [[], [{ operator: 'search', operand: SEARCH_WORD }], [{ operator: 'channels', operand: 'public' }]]) {
        const res = await fetch(m.owenHome, narrow);
        assert.equal(res.status, 200, JSON.stringify(narrow));
        assert.deepEqual(MESSAGES.filter((key) => present(res.body, key)), [], JSON.stringify(narrow));
      }
      for (const key of ['general', 'vault'] as const) {
        const res = await fetch(m.owenHome, [{ operator: 'channel', operand: m.stream[key] }]);
        expectRefusal(res, refusal(`Invalid narrow operator: unknown channel ${m.stream[key]}`, 'BAD_NARROW'), key);
      }
    });
  });
}
