// Local echo: the echo a send shows at once, and its reconciliation with the server's message event.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Message } from '../src/api.js';
import { carryLocalEchoes, echoHtml, findLocalEcho, localEcho, markEcho, nextLocalId } from '../src/compose-echo.js';
import { applyEvent, fromRegister, messagesIn } from '../src/model.js';

const me = { user_id: 10, full_name: 'Mark Member', email: 'mark@confab.test' };
const mona = { user_id: 11, full_name: 'Mona Member', email: 'mona@confab.test' };

function freshModel() {
  const model = fromRegister({ user_id: 10, full_name: me.full_name, email: me.email, subscriptions: [{ stream_id: 4, name: 'general', color: '#fff' }], realm_users: [me, mona] });
  model.messages.set(100, { id: 100, sender_id: 11, sender_full_name: 'Mona Member', sender_email: mona.email, content: '<p>x</p>', timestamp: 1, type: 'stream', stream_id: 4, subject: 'lunch', display_recipient: 'general', flags: [] });
  return model;
}

function echo(model: ReturnType<typeof freshModel>, localId: string, params = { type: 'stream', to: 4, topic: 'lunch', content: 'hi' } as Record<string, unknown>, recipients = [] as typeof me[]) {
  const message = localEcho(model, { localId, params: params as never, me, recipients, now: 5000, html: echoHtml(String(params.content)) });
  model.messages.set(message.id, message);
  return message;
}

describe('local echo', () => {
  it('numbers echoes just after the newest known message, in the order sent', () => {
    const model = freshModel();
    assert.equal(nextLocalId(model), 100.01);
    echo(model, '100.01');
    assert.equal(nextLocalId(model), 100.02);
  });

  it('shows a stream echo in its topic, marked sending, and a direct echo to its people', () => {
    const model = freshModel();
    const shown = echo(model, 'a');
    assert.deepEqual(messagesIn(model, { kind: 'stream', streamId: 4, topic: 'LUNCH' }).map((m) => m.id), [100, 100.01]);
    assert.equal(shown.local?.state, 'sending');
    assert.equal(shown.timestamp, 5);
    assert.equal(shown.content, '<p>hi</p>');
    const dm = echo(model, 'b', { type: 'direct', to: [11], content: 'psst' }, [mona]);
    assert.equal(dm.type, 'private');
    assert.deepEqual(dm.display_recipient, [
      { id: 10, email: me.email, full_name: me.full_name },
      { id: 11, email: mona.email, full_name: mona.full_name },
    ]);
  });

  it('is replaced by the message event that names its local_message_id: no duplicate', () => {
    const model = freshModel();
    echo(model, 'a');
    const server: Message = { id: 101, sender_id: 10, sender_full_name: me.full_name, sender_email: me.email, content: '<p>hi</p>', timestamp: 5, type: 'stream', stream_id: 4, subject: 'lunch', display_recipient: 'general', flags: [] };
    applyEvent(model, { id: 0, type: 'message', message: server, flags: ['read'], local_message_id: 'a' });
    assert.deepEqual([...model.messages.keys()].sort(), [100, 101]);
    assert.equal(findLocalEcho(model, 'a'), undefined);
    // Someone else's message (no local id) leaves echoes alone.
    echo(model, 'b');
    applyEvent(model, { id: 1, type: 'message', message: { ...server, id: 102, sender_id: 11 }, flags: [] });
    assert.ok(findLocalEcho(model, 'b'));
  });

  it('is marked failed with the reason, then sending again for a retry', () => {
    const model = freshModel();
    echo(model, 'a');
    const key = findLocalEcho(model, 'a')?.local?.idempotencyKey;
    markEcho(model, 'a', 'failed', 'Refused');
    assert.deepEqual(findLocalEcho(model, 'a')?.local, { localId: 'a', state: 'failed', params: { type: 'stream', to: 4, topic: 'lunch', content: 'hi' }, idempotencyKey: key, error: 'Refused' });
    markEcho(model, 'a', 'sending');
    assert.equal(findLocalEcho(model, 'a')?.local?.state, 'sending');
    // The retry is the same request to the server: it keeps the key, so a lost answer cannot mean two messages.
    assert.equal(findLocalEcho(model, 'a')?.local?.idempotencyKey, key);
  });

  it('gives each message a key of its own for its sends', () => {
    const model = freshModel();
    echo(model, 'a');
    echo(model, 'b');
    const a = findLocalEcho(model, 'a')?.local?.idempotencyKey;
    const b = findLocalEcho(model, 'b')?.local?.idempotencyKey;
    assert.match(String(a), /^[0-9a-f]{32}$/);
    assert.match(String(b), /^[0-9a-f]{32}$/);
    assert.notEqual(a, b);
  });

  it('survives a new register', () => {
    const old = freshModel();
    echo(old, 'a');
    const fresh = freshModel();
    fresh.messages.clear();
    carryLocalEchoes(old, fresh);
    assert.deepEqual([...fresh.messages.keys()], [100.01]);
  });

  it('shows the text escaped, with its paragraphs and line breaks', () => {
    assert.equal(echoHtml('<b>&"\'\nsecond\n\nnew'), '<p>&#60;b&#62;&#38;&#34;&#39;<br>second</p><p>new</p>');
  });
});
