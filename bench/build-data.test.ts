// The data-set builder writes exactly what the real send action would: checked by invariants
// over a small built set, and by sending sample messages again through checkSendMessage.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { runAction } from '../src/actions/context.js';
import { checkSendMessage } from '../src/actions/message-send.js';
import { defaultConfig } from '../src/config.js';
import type { Store } from '../src/db/connect.js';
import { RecipientType, type MessageRow } from '../src/db/schema.js';
import { LocalBus } from '../src/events/bus.js';
import { withQueues } from '../src/events/registry.js';
import type { Addressee } from '../src/lib/addressee.js';
import { defaultReadBySender } from '../src/lib/client-name.js';
import { FLAG_BITS } from '../src/lib/message-flags.js';
import type { Services } from '../src/services.js';
import { freshStore, testDialects } from '../test/support/dialects.js';
import { type BuildResult, buildDataSet } from './lib/build.js';
import { progressOutput } from './lib/progress.js';
import { COMMON_SEARCH_WORD } from './lib/text.js';

progressOutput.enabled = false;
const END = 1_800_000_000;
const MESSAGES = 1500;

for (const dialect of testDialects()) {
  describe(`bench data-set builder (${dialect})`, () => {
    let store: Store;
    let built: BuildResult;
    const count = async (query: ReturnType<typeof sql<{ n: number }>>) => Number((await query.execute(store.db)).rows[0]!.n);

    before(async () => {
      store = await freshStore(dialect);
      built = await buildDataSet(store, {
        users: 40, streams: 8, messages: MESSAGES, directShare: 0.25, seed: 7, realmUrl: 'http://confab.test', end: END,
      });
    });
    after(() => store.close());

    it('writes the requested messages, a quarter of them direct, over the year before the end', async () => {
      const { totals } = built;
      assert.equal(totals.messages, MESSAGES);
      assert.equal(await count(sql`SELECT COUNT(*) AS n FROM message`), MESSAGES);
      const direct = totals.directOneOnOne + totals.directGroup + totals.directSelf;
      assert.equal(direct + totals.streamMessages, MESSAGES);
      assert.ok(direct / MESSAGES > 0.18 && direct / MESSAGES < 0.32, `direct share ${direct / MESSAGES}`);
      assert.ok(totals.directGroup > 0 && totals.directOneOnOne > 0 && totals.directSelf > 0);
      const range = (await sql<{ lo: number; hi: number }>`SELECT MIN(date_sent) AS lo, MAX(date_sent) AS hi FROM message`.execute(store.db)).rows[0]!;
      assert.ok(Number(range.lo) >= END - 365 * 86_400 && Number(range.hi) < END);
      assert.equal(totals.userMessages, await count(sql`SELECT COUNT(*) AS n FROM user_message`));
      assert.equal(totals.reactions, await count(sql`SELECT COUNT(*) AS n FROM reaction`));
      assert.equal(built.totals.users, 40);
    });

    it('gives every active subscriber of a stream, and nobody else, a row for its messages', async () => {
      assert.equal(await count(sql`
        SELECT COUNT(*) AS n FROM message m JOIN stream s ON s.recipient_id = m.recipient_id
        JOIN subscription sub ON sub.recipient_id = m.recipient_id AND sub.active = 1
        LEFT JOIN user_message um ON um.message_id = m.id AND um.user_id = sub.user_id
        WHERE um.user_id IS NULL`), 0);
      assert.equal(await count(sql`
        SELECT COUNT(*) AS n FROM user_message um JOIN message m ON m.id = um.message_id
        JOIN stream s ON s.recipient_id = m.recipient_id
        LEFT JOIN subscription sub ON sub.recipient_id = m.recipient_id AND sub.user_id = um.user_id AND sub.active = 1
        WHERE sub.id IS NULL`), 0);
    });

    it('marks direct-message rows is_private, the sender of a UI client read, mentioned people, and nothing else', async () => {
      const rows = await store.db
        .selectFrom('user_message as um')
        .innerJoin('message as m', 'm.id', 'um.message_id')
        .innerJoin('recipient as r', 'r.id', 'm.recipient_id')
        .select(['um.user_id', 'um.flags', 'm.id', 'm.sender_id', 'm.sending_client', 'r.type', 'r.type_id'])
        .execute();
      const members = new Map<number, Set<number>>();
      const groups = await store.db.selectFrom('direct_message_group').select(['id', 'huddle_hash']).execute();
      const groupMembers = new Map(groups.map((g) => [g.id, g.huddle_hash.split(',').map(Number)]));
      for (const row of rows) {
        const isPrivate = (row.flags & FLAG_BITS.is_private) !== 0;
        assert.equal(isPrivate, row.type !== RecipientType.STREAM, `message ${row.id} user ${row.user_id}`);
        if (row.user_id === row.sender_id && defaultReadBySender(row.sending_client)) assert.ok(row.flags & FLAG_BITS.read);
        // Mentions of people by name are the only other flag the text generator causes.
        assert.equal(row.flags & ~(FLAG_BITS.is_private | FLAG_BITS.read | FLAG_BITS.starred | FLAG_BITS.mentioned), 0);
        if (row.type !== RecipientType.STREAM) {
          const expected =
            row.type === RecipientType.PERSONAL ? new Set([row.sender_id, row.type_id]) : new Set(groupMembers.get(row.type_id));
          members.set(row.id, members.get(row.id) ?? expected);
          assert.ok(expected.has(row.user_id), `message ${row.id}: ${row.user_id} is not in the conversation`);
        }
      }
      for (const [id, expected] of members) {
        assert.equal(rows.filter((r) => r.id === id).length, expected.size, `message ${id} rows`);
      }
    });

    it('sets each stream first_message_id to its oldest message', async () => {
      const streams = await store.db
        .selectFrom('stream')
        .leftJoin('message', 'message.recipient_id', 'stream.recipient_id')
        .select(['stream.id', 'stream.first_message_id'])
        .select((eb) => eb.fn.min('message.id').as('oldest'))
        .groupBy(['stream.id', 'stream.first_message_id'])
        .execute();
      assert.equal(streams.length, 8);
      for (const s of streams) assert.equal(s.first_message_id, s.oldest === null ? null : Number(s.oldest));
    });

    it('lets full-text search find every message with the common word', async () => {
      const messages = await store.db.selectFrom('message').select(['subject', 'content']).execute();
      const word = new RegExp(`\\b${COMMON_SEARCH_WORD}\\b`, 'i');
      const expected = messages.filter((m) => word.test(`${m.subject} ${m.content}`)).length;
      assert.ok(expected > MESSAGES * 0.01, `only ${expected} messages contain "${COMMON_SEARCH_WORD}"`);
      const found =
        dialect === 'sqlite'
          ? await count(sql`SELECT COUNT(*) AS n FROM message_fts WHERE message_fts MATCH ${COMMON_SEARCH_WORD}`)
          : await count(sql`SELECT COUNT(*) AS n FROM message WHERE search_tsv @@ plainto_tsquery('english', ${COMMON_SEARCH_WORD})`);
      assert.equal(found, expected);
    });

    it('has reactions only from people who received the message', async () => {
      assert.ok(built.totals.reactions > 0);
      assert.equal(await count(sql`
        SELECT COUNT(*) AS n FROM reaction re
        LEFT JOIN user_message um ON um.message_id = re.message_id AND um.user_id = re.user_id
        WHERE um.user_id IS NULL`), 0);
    });

    it('writes the same rows as sending the message through checkSendMessage', async () => {
      const services: Services = withQueues({
        config: defaultConfig, store, db: store.db, clock: { now: () => END }, bus: new LocalBus(),
      });
      const users = new Map(built.org.users.map((u) => [u.id, u]));
      const sample = await store.db
        .selectFrom('message')
        .innerJoin('recipient', 'recipient.id', 'message.recipient_id')
        .selectAll('message')
        .select(['recipient.type', 'recipient.type_id'])
        .orderBy('message.id')
        .execute();
      const picks = [
        sample.find((m) => m.type === RecipientType.STREAM),
        sample.find((m) => m.type === RecipientType.PERSONAL && m.type_id !== m.sender_id),
        sample.find((m) => m.type === RecipientType.PERSONAL && m.type_id === m.sender_id),
        sample.find((m) => m.type === RecipientType.DIRECT_MESSAGE_GROUP),
      ];
      const groups = new Map(
        (await store.db.selectFrom('direct_message_group').select(['id', 'huddle_hash']).execute()).map((g) => [g.id, g.huddle_hash]),
      );
      for (const original of picks) {
        assert.ok(original);
        const sender = users.get(original.sender_id)!;
        let addressee: Addressee;
        if (original.type === RecipientType.STREAM) addressee = { kind: 'stream', streamId: original.type_id, topic: original.subject };
        else if (original.type === RecipientType.PERSONAL) addressee = { kind: 'direct', userIds: [original.type_id] };
        else addressee = { kind: 'direct', userIds: groups.get(original.type_id)!.split(',').map(Number) };
        const realm = built.org.realm;
        const { id } = await runAction(services, sender, realm, (ctx) =>
          checkSendMessage({ ...ctx, now: original.date_sent }, {
            addressee, content: original.content, client: original.sending_client, readBySender: defaultReadBySender(original.sending_client),
          }),
        );
        const again = await store.db.selectFrom('message').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
        const strip = ({ id: _id, ...rest }: MessageRow & Record<string, unknown>) => rest;
        const { type: _t, type_id: _ti, ...originalRow } = original;
        assert.deepEqual(strip(again), strip(originalRow as MessageRow));
        const flagsOf = async (messageId: number) =>
          (await store.db.selectFrom('user_message').select(['user_id', 'flags']).where('message_id', '=', messageId).orderBy('user_id').execute())
            // Reading and starring happen after sending: compare what sending decided.
            .map((r) => ({ user_id: r.user_id, flags: r.flags & ~(FLAG_BITS.starred | (r.user_id === sender.id ? 0 : FLAG_BITS.read)) }));
        assert.deepEqual(await flagsOf(id), await flagsOf(original.id));
      }
    });
  });
}
