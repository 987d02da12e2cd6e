import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FLAG_BITS } from '../../src/lib/message-flags.js';
import { expectError, expectSuccess } from '../support/client.js';
import { setup, type TestContext } from '../support/context.js';
import { testDialects } from '../support/dialects.js';
import { MessageFixtures } from '../support/message-fixtures.js';

const NEWEST = 10_000_000_000_000_000;

/** The fixture's messages, by name, in id order. Mark is the viewer in most tests. */
async function buildFixture(ctx: TestContext) {
  const f = new MessageFixtures(ctx);
  const { read, starred, mentioned, has_alert_word } = FLAG_BITS;
  const ids = {
    plan1: await f.toStream('olivia', 'general', 'Deploy Plan', 'We are deploying the database tonight', { flags: { mark: read | starred } }),
    plan2: await f.toStream('mona', 'general', 'deploy plan', 'Cats and dogs https://example.com', { hasLink: true, flags: { mark: mentioned } }),
    resolved: await f.toStream('mark', 'general', '✔ Fixed bug', 'The bug is fixed'),
    lunch: await f.toStream('maya', 'general', 'lunch', 'Who wants pizza?', {
      hasImage: true,
      hasAttachment: true,
      reactions: ['mona'],
      flags: { mark: read | has_alert_word },
    }),
    mutedTopic: await f.toStream('milo', 'general', 'Muted Thing', 'boring talk'),
    build: await f.toStream('olivia', 'engineering', 'builds', 'The build is green'),
    unmuted: await f.toStream('milo', 'engineering', 'Unmuted Topic', 'important news'),
    followed: await f.toStream('adam', 'engineering', 'followed one', 'deploying again', { flags: { mark: read } }),
    design: await f.toStream('maya', 'design', 'colors', 'new colors'),
    secret: await f.toStream('olivia', 'leadership', 'secret', 'the budget'),
    dmOut: await f.direct('mark', ['mona'], 'hi mona'),
    dmIn: await f.direct('mona', ['mark'], 'reply to mark'),
    self: await f.direct('mark', ['mark'], 'note to self'),
    others: await f.direct('mona', ['milo'], 'between others'),
    group: await f.direct('mark', ['mona', 'milo'], 'group hello'),
    group2: await f.direct('maya', ['mark', 'mona'], 'group with maya'),
  };
  await f.muteStream('mark', 'engineering');
  await f.topicPolicy('mark', 'general', 'muted thing', 1);
  await f.topicPolicy('mark', 'engineering', 'unmuted topic', 2);
  await f.topicPolicy('mark', 'engineering', 'Followed One', 3);
  return ids;
}

type Names = keyof Awaited<ReturnType<typeof buildFixture>>;

for (const dialect of testDialects()) {
  describe(`GET /messages [${dialect}]`, () => {
    let ctx: TestContext;
    let ids: Record<Names, number>;
    before(async () => {
      ctx = await setup(dialect);
      ids = await buildFixture(ctx);
    });
    after(() => ctx.close());

    const get = (params: Record<string, unknown>, user: 'mark' | 'gus' | 'adam' = 'mark') => ctx.as(user).get('/messages', params);
    const all = async (narrow: unknown, user: 'mark' | 'gus' | 'adam' = 'mark') =>
      expectSuccess(await get({ anchor: 'oldest', num_after: 1000, narrow }, user));
    const idsOf = (body: Record<string, any>) => body.messages.map((m: { id: number }) => m.id);
    const named = (...names: Names[]) => names.map((n) => ids[n]);
    const mine: Names[] = ['plan1', 'plan2', 'resolved', 'lunch', 'mutedTopic', 'build', 'unmuted', 'followed', 'dmOut', 'dmIn', 'self', 'group', 'group2'];

    describe('anchors and ranges', () => {
      it('fetches the newest messages with anchor=newest', async () => {
        const body = expectSuccess(await get({ anchor: 'newest', num_before: 3, num_after: 5 }));
        assert.deepEqual(idsOf(body), named('self', 'group', 'group2'));
        assert.deepEqual(
          { anchor: body.anchor, found_anchor: body.found_anchor, found_newest: body.found_newest, found_oldest: body.found_oldest, history_limited: body.history_limited },
          { anchor: NEWEST, found_anchor: false, found_newest: true, found_oldest: false, history_limited: false },
        );
      });

      it('fetches the oldest messages with anchor=oldest', async () => {
        const body = expectSuccess(await get({ anchor: 'oldest', num_before: 2, num_after: 2 }));
        assert.deepEqual(idsOf(body), named('plan1', 'plan2'));
        assert.deepEqual([body.anchor, body.found_anchor, body.found_oldest, body.found_newest], [0, false, true, false]);
      });

      it('reports everything found when the range covers the narrow', async () => {
        const body = await all([]);
        assert.deepEqual(idsOf(body), named(...mine));
        assert.deepEqual([body.found_oldest, body.found_newest], [true, true]);
      });

      it('centres on an integer anchor and reports finding it', async () => {
        const body = expectSuccess(await get({ anchor: ids.lunch, num_before: 1, num_after: 1 }));
        assert.deepEqual(idsOf(body), named('resolved', 'lunch', 'mutedTopic'));
        assert.deepEqual([body.anchor, body.found_anchor, body.found_oldest, body.found_newest], [ids.lunch, true, false, false]);
      });

      it('accepts the anchor as a string', async () => {
        const body = expectSuccess(await get({ anchor: String(ids.lunch), num_before: 0, num_after: 1 }));
        assert.deepEqual(idsOf(body), named('lunch', 'mutedTopic'));
      });

      it('leaves the anchor out when include_anchor is false', async () => {
        const before = expectSuccess(await get({ anchor: ids.lunch, num_before: 2, num_after: 0, include_anchor: false }));
        assert.deepEqual(idsOf(before), named('plan2', 'resolved'));
        assert.equal(before.found_anchor, false);
        const after = expectSuccess(await get({ anchor: ids.lunch, num_before: 0, num_after: 2, include_anchor: false }));
        assert.deepEqual(idsOf(after), named('mutedTopic', 'build'));
        assert.equal(after.found_anchor, false);
      });

      it('does not find an anchor outside the narrow', async () => {
        const body = expectSuccess(await get({ anchor: ids.build, num_before: 1, num_after: 1, narrow: [['channel', 'general']] }));
        assert.deepEqual(idsOf(body), named('mutedTopic'));
        assert.deepEqual([body.found_anchor, body.found_oldest, body.found_newest], [false, false, true]);
      });

      it('returns only the anchor when both counts are 0', async () => {
        const body = expectSuccess(await get({ anchor: ids.lunch }));
        assert.deepEqual(idsOf(body), named('lunch'));
        assert.deepEqual([body.found_anchor, body.found_oldest, body.found_newest], [true, false, false]);
      });

      it('treats negative anchors as 0 and clamps huge ones to newest', async () => {
        const low = expectSuccess(await get({ anchor: -5, num_after: 1 }));
        assert.deepEqual([low.anchor, idsOf(low)], [0, named('plan1')]);
        const high = expectSuccess(await get({ anchor: '123456789012345678901234', num_before: 1 }));
        assert.deepEqual([high.anchor, idsOf(high), high.found_newest], [NEWEST, named('group2'), true]);
      });

      it('anchors first_unread at the oldest unread message outside muted streams and topics', async () => {
        const body = expectSuccess(await get({ anchor: 'first_unread', num_before: 1, num_after: 1 }));
        assert.deepEqual([body.anchor, body.found_anchor, idsOf(body)], [ids.plan2, true, named('plan1', 'plan2', 'resolved')]);
        // Inside a muted stream, only its muted topics are skipped.
        const inStream = expectSuccess(await get({ anchor: 'first_unread', narrow: [['channel', 'engineering']] }));
        assert.equal(inStream.anchor, ids.build);
        const legacy = expectSuccess(await get({ use_first_unread_anchor: true, num_after: 0 }));
        assert.equal(legacy.anchor, ids.plan2);
      });

      it('anchors first_unread at newest when nothing is unread', async () => {
        const body = expectSuccess(await get({ anchor: 'first_unread', num_before: 1, narrow: [['is', 'starred']] }));
        assert.deepEqual([body.anchor, body.found_newest, idsOf(body)], [NEWEST, true, named('plan1')]);
      });
    });

    describe('parameter errors', () => {
      it('needs an anchor unless use_first_unread_anchor is set', async () => {
        expectError(await get({ num_before: 1 }), "Missing 'anchor' argument.");
      });

      it('rejects anchors that are neither ids nor names', async () => {
        expectError(await get({ anchor: 'latest', num_before: 1 }), 'Invalid anchor');
        expectError(await get({ anchor: '12abc', num_before: 1 }), 'Invalid anchor');
      });

      it('checks the counts', async () => {
        expectError(await get({ anchor: 'newest', num_before: -1 }), 'num_before is too small');
        expectError(await get({ anchor: 'newest', num_after: 'many' }), 'num_after is not valid JSON');
        expectError(await get({ anchor: 'newest', num_after: 1.5 }), 'num_after is not an integer');
        expectError(await get({ anchor: 'newest', num_before: 4000, num_after: 1001 }), 'Too many messages requested (maximum 5000).');
        expectSuccess(await get({ anchor: 'newest', num_before: 4000, num_after: 1000 }));
      });

      it('excludes the anchor only at an end of the range', async () => {
        expectError(
          await get({ anchor: ids.lunch, num_before: 1, num_after: 1, include_anchor: false }),
          'The anchor can only be excluded at an end of the range',
        );
      });

      it('reads a null narrow as no narrow', async () => {
        const body = expectSuccess(await get({ anchor: 'oldest', num_after: 100, narrow: 'null' }));
        assert.deepEqual(idsOf(body), named(...mine));
      });

      it('checks the shape of the narrow', async () => {
        expectError(await get({ anchor: 'newest', narrow: '{"operator": "is"}' }), 'narrow is not a list');
        expectError(await get({ anchor: 'newest', narrow: '[["is"]]' }), 'Invalid narrow[0]: Value error, element is not a string pair');
        expectError(await get({ anchor: 'newest', narrow: '[{"operator": "is"}]' }), 'Invalid narrow[0]: Value error, operand is missing');
        expectError(await get({ anchor: 'newest', narrow: [{ operator: 'topic', operand: 5 }] }), 'operand is not a string');
        expectError(await get({ anchor: 'newest', narrow: [{ operator: 'dm', operand: ['x'] }] }), 'operand[0] is not an integer');
        expectError(await get({ anchor: 'newest', narrow: '[' }), 'narrow is not valid JSON');
      });

      const badNarrows: Array<[unknown, string]> = [
        [[['foo', 'bar']], 'unknown operator foo'],
        [[['is', 'bogus']], "unknown 'is' operand bogus"],
        [[['has', 'emoji']], "unknown 'has' operand emoji"],
        [[['in', 'nowhere']], "unknown 'in' operand nowhere"],
        [[['channels', 'all']], 'unknown channels operand all'],
        [[['channel', 'nosuch']], 'unknown channel nosuch'],
        [[{ operator: 'stream', operand: 99999 }], 'unknown channel 99999'],
        [[['sender', 'nobody@confab.test']], 'unknown user nobody@confab.test'],
        [[{ operator: 'sender', operand: 99999 }], 'unknown user 99999'],
        [[['dm', 'mona@confab.test,nobody@confab.test']], 'unknown user in mona@confab.test,nobody@confab.test'],
        [[{ operator: 'dm', operand: [99998, 99999] }], 'unknown user in [99998, 99999]'],
        [[['dm-including', 'nobody@confab.test']], 'unknown user nobody@confab.test'],
        [[['id', 'abc']], 'Invalid message ID'],
        [[['with', 'abc']], "Invalid 'with' operator"],
        [[['channel', 'general'], ['dm', 'mona@confab.test']], 'No message can be both a channel message and direct message'],
        [[['is', 'dm'], ['topic', 'lunch']], 'No message can be both a channel message and direct message'],
      ];
      for (const [narrow, desc] of badNarrows) {
        it(`answers BAD_NARROW for ${JSON.stringify(narrow)}`, async () => {
          const body = expectError(await get({ anchor: 'newest', narrow }), `Invalid narrow operator: ${desc}`, 'BAD_NARROW');
          assert.equal(body.desc, desc);
        });
      }

      it('rejects a with term for a message the viewer may not read, unless the rest names a conversation', async () => {
        expectError(await get({ anchor: 'newest', narrow: [['with', String(ids.secret)]] }), "Invalid narrow operator: Invalid 'with' operator", 'BAD_NARROW');
        const body = expectSuccess(
          await get({ anchor: 'oldest', num_after: 10, narrow: [['channel', 'general'], ['topic', 'lunch'], ['with', String(ids.secret)]] }),
        );
        assert.deepEqual(idsOf(body), named('lunch'));
        const duplicate = expectError(
          await get({ anchor: 'newest', narrow: [['with', '1'], ['with', '2']] }),
          "Invalid narrow operator combination: Duplicate 'with' operators.",
          'BAD_NARROW',
        );
        assert.equal(duplicate.desc, "Duplicate 'with' operators.");
      });
    });

    describe('operators', () => {
      const cases: Array<[string, () => unknown, Names[]]> = [
        ['channel by name', () => [['channel', 'general']], ['plan1', 'plan2', 'resolved', 'lunch', 'mutedTopic']],
        ['stream by id', () => [{ operator: 'stream', operand: ctx.seed.streams.engineering.id }], ['build', 'unmuted', 'followed']],
        ['a private stream the viewer is not in', () => [['channel', 'leadership']], []],
        ['channels:public', () => [['channels', 'public']], ['plan1', 'plan2', 'resolved', 'lunch', 'mutedTopic', 'build', 'unmuted', 'followed', 'design']],
        ['topic, case-insensitively', () => [['topic', 'DEPLOY PLAN']], ['plan1', 'plan2']],
        ['sender by email', () => [['sender', 'MONA@confab.test']], ['plan2', 'dmIn']],
        ['sender by id', () => [{ operator: 'sender', operand: ctx.seed.users.olivia.id }], ['plan1', 'build']],
        ['dm in both directions', () => [{ operator: 'dm', operand: [ctx.seed.users.mona.id] }], ['dmOut', 'dmIn']],
        ['pm-with by email', () => [['pm-with', 'mona@confab.test']], ['dmOut', 'dmIn']],
        ['dm with oneself', () => [{ operator: 'dm', operand: [ctx.seed.users.mark.id] }], ['self']],
        ['dm with a group', () => [['dm', 'milo@confab.test,mona@confab.test']], ['group']],
        ['dm with a group that never talked', () => [['dm', 'milo@confab.test,maya@confab.test']], []],
        ['dm with nobody', () => [{ operator: 'dm', operand: [] }], []],
        ['dm-including another user', () => [['dm-including', 'mona@confab.test']], ['dmOut', 'dmIn', 'group', 'group2']],
        ['dm-including oneself', () => [{ operator: 'dm-including', operand: ctx.seed.users.mark.id }], ['dmOut', 'dmIn', 'self', 'group', 'group2']],
        ['group-pm-with', () => [['group-pm-with', 'mona@confab.test']], ['group', 'group2']],
        ['is:dm', () => [['is', 'dm']], ['dmOut', 'dmIn', 'self', 'group', 'group2']],
        ['is:private', () => [['is', 'private']], ['dmOut', 'dmIn', 'self', 'group', 'group2']],
        ['is:starred', () => [['is', 'starred']], ['plan1']],
        ['is:unread', () => [['is', 'unread']], ['plan2', 'mutedTopic', 'build', 'unmuted', 'dmIn', 'group2']],
        ['is:mentioned', () => [['is', 'mentioned']], ['plan2']],
        ['is:alerted', () => [['is', 'alerted']], ['lunch']],
        ['is:resolved', () => [['is', 'resolved']], ['resolved']],
        ['is:followed', () => [['is', 'followed']], ['followed']],
        ['is:muted', () => [['is', 'muted']], ['mutedTopic', 'build']],
        ['has:link', () => [['has', 'link']], ['plan2']],
        ['has:image', () => [['has', 'image']], ['lunch']],
        ['has:attachment', () => [['has', 'attachment']], ['lunch']],
        ['has:reaction', () => [['has', 'reaction']], ['lunch']],
        ['in:home', () => [['in', 'home']], mine.filter((n) => n !== 'mutedTopic' && n !== 'build')],
        ['in:all', () => [['in', 'all']], mine],
        ['near', () => [['near', String(ids.lunch)]], mine],
        ['id', () => [['id', String(ids.plan2)]], ['plan2']],
        ['search', () => [['search', 'deploy']], ['plan1', 'plan2', 'followed']],
        ['with a stream message', () => [['with', String(ids.plan2)]], ['plan1', 'plan2']],
        ['with a direct message', () => [{ operator: 'with', operand: ids.dmIn }], ['dmOut', 'dmIn']],
        ['negated channel', () => [{ operator: 'channel', operand: 'general', negated: true }], ['build', 'unmuted', 'followed', 'dmOut', 'dmIn', 'self', 'group', 'group2']],
        ['negated is:dm', () => [{ operator: 'is', operand: 'dm', negated: true }], ['plan1', 'plan2', 'resolved', 'lunch', 'mutedTopic', 'build', 'unmuted', 'followed']],
        ['negated topic', () => [['channel', 'general'], { operator: 'topic', operand: 'deploy plan', negated: true }], ['resolved', 'lunch', 'mutedTopic']],
        ['negated search', () => [['channel', 'general'], { operator: 'search', operand: 'deploying', negated: true }], ['resolved', 'lunch', 'mutedTopic']],
        ['channel and topic', () => [['stream', 'general'], ['topic', 'lunch']], ['lunch']],
      ];
      for (const [name, narrow, expected] of cases) {
        it(name, async () => {
          assert.deepEqual(idsOf(await all(narrow())), named(...expected));
        });
      }
    });

    describe('shared history', () => {
      it('returns unreceived messages of a readable stream as read and historical', async () => {
        const body = await all([['channel', 'design']]);
        assert.deepEqual(idsOf(body), named('design'));
        assert.deepEqual(body.messages[0].flags, ['read', 'historical']);
        assert.equal(body.messages[0].display_recipient, 'design');
      });

      it('keeps the viewer own flags on received messages', async () => {
        const body = await all([['channel', 'general'], ['topic', 'deploy plan']]);
        assert.deepEqual(body.messages.map((m: { flags: string[] }) => m.flags), [['read', 'starred'], ['mentioned']]);
      });

      it('does not search history with an is: term other than is:resolved', async () => {
        assert.deepEqual(idsOf(await all([['channel', 'design'], ['is', 'unread']])), []);
        assert.deepEqual(idsOf(await all([['channel', 'design'], ['is', 'resolved']])), []);
      });

      it('gives guests no history of unsubscribed streams', async () => {
        assert.deepEqual(idsOf(await all([['channels', 'public']], 'gus')), []);
        assert.deepEqual(idsOf(await all([['channel', 'general']], 'gus')), []);
      });

      it('lets subscribers of a private stream with shared history read it', async () => {
        assert.deepEqual(idsOf(await all([['channel', 'leadership']], 'adam')), named('secret'));
      });
    });

    describe('search', () => {
      it('highlights the matches in content and topic', async () => {
        const body = await all([['search', 'plan deploying']]);
        assert.deepEqual(idsOf(body), named('plan1', 'plan2'));
        assert.equal(body.messages[0].match_content, '<p>We are <span class="highlight">deploying</span> the database tonight</p>');
        assert.equal(body.messages[0].match_subject, '<span class="highlight">Deploy</span> <span class="highlight">Plan</span>');
        assert.equal(body.messages[1].match_content, '<p>Cats and dogs <a href="https://example.com">https://example.com</a></p>');
        assert.equal(body.messages[1].match_subject, '<span class="highlight">deploy</span> <span class="highlight">plan</span>');
      });

      it('matches quoted phrases verbatim', async () => {
        assert.deepEqual(idsOf(await all([['search', '"the database"']])), named('plan1'));
        assert.deepEqual(idsOf(await all([['search', '"database the"']])), []);
      });

      it('adds no match fields without a search term', async () => {
        const body = await all([['id', String(ids.plan1)]]);
        assert.equal('match_content' in body.messages[0], false);
      });
    });

    describe('message dictionaries', () => {
      it('renders content unless apply_markdown is false, and reports ignored parameters', async () => {
        const html = expectSuccess(await get({ anchor: ids.plan1 }));
        assert.equal(html.messages[0].content, '<p>We are deploying the database tonight</p>');
        assert.equal(html.messages[0].subject, 'Deploy Plan');
        const raw = expectSuccess(await get({ anchor: ids.plan1, apply_markdown: false, message_ids: '[1]' }));
        assert.equal(raw.messages[0].content, 'We are deploying the database tonight');
        assert.deepEqual(raw.ignored_parameters_unsupported, ['message_ids']);
      });
    });
  });
}
