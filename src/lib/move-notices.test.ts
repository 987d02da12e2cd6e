import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeHashComponent, messageLink, newThreadNotice, oldThreadNotice, resolveNotice, topicLinkSyntax } from './move-notices.js';

const mover = { id: 7, full_name: 'Mark Member' };
const from = { streamId: 1, streamName: 'general', topic: 'old' };
const to = { streamId: 2, streamName: 'dev ops', topic: 'new.topic' };
const move = { mover, from, to, count: 3, wholeTopic: true, newTopic: true, messageId: 42, realmUrl: 'https://chat.example' };

describe('move notices', () => {
  it('encodes narrow links as the web app does', () => {
    assert.equal(encodeHashComponent('new.topic'), 'new.2Etopic');
    assert.equal(encodeHashComponent("a b/c(d)'"), 'a.20b.2Fc.28d.29.27');
    assert.equal(messageLink('https://chat.example', to, 42), 'https://chat.example/#narrow/channel/2-dev-ops/topic/new.2Etopic/near/42');
  });

  it('links topics with #**stream>topic**, or a Markdown link when the names would break it', () => {
    assert.equal(topicLinkSyntax(from), '#**general>old**');
    assert.equal(topicLinkSyntax({ ...from, topic: 'a > b' }), '[#general > a &gt; b](#narrow/channel/1-general/topic/a.20.3E.20b)');
  });

  it('words the notices as the reference does', () => {
    assert.equal(newThreadNotice(move), 'This topic was moved here from #**general>old** by @_**Mark Member|7**.');
    assert.equal(oldThreadNotice(move), 'This topic was moved to #**dev ops>new.topic** by @_**Mark Member|7**.');
    const part = { ...move, wholeTopic: false };
    assert.equal(newThreadNotice(part), '3 messages were moved here from #**general>old** by @_**Mark Member|7**.');
    assert.equal(oldThreadNotice(part), '3 messages were moved from this topic to #**dev ops>new.topic** by @_**Mark Member|7**.');
    const one = { ...part, count: 1 };
    assert.equal(
      newThreadNotice(one),
      '[A message](https://chat.example/#narrow/channel/2-dev-ops/topic/new.2Etopic/near/42) was moved here from #**general>old** by @_**Mark Member|7**.',
    );
    assert.equal(oldThreadNotice(one), 'A message was moved from this topic to #**dev ops>new.topic** by @_**Mark Member|7**.');
    assert.equal(newThreadNotice({ ...move, newTopic: false }), '3 messages were moved here from #**general>old** by @_**Mark Member|7**.');
    assert.equal(resolveNotice('resolved', mover), '@_**Mark Member|7** has marked this topic as resolved.');
  });
});
