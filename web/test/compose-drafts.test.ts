// Drafts saved through the drafts API: created once, then updated; deleted when sent or emptied.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Api, Params } from '../src/api.js';
import { ApiError } from '../src/api.js';
import { DraftSaver, draftFor } from '../src/compose-drafts.js';
import { draftKey } from '../src/compose-rules.js';
import { fromRegister } from '../src/model.js';

function fakeApi(failures: Record<string, ApiError> = {}) {
  const calls: string[] = [];
  let nextId = 7;
  const api = {
    async call(method: string, path: string, params: Params = {}) {
      calls.push(`${method} ${path} ${JSON.stringify(params)}`);
      const failure = failures[`${method} ${path}`];
      if (failure) throw failure;
      return method === 'POST' ? { ids: [nextId++] } : {};
    },
  } as unknown as Api;
  return { api, calls };
}

const body = (content: string, topic = 'lunch') => ({ type: 'stream' as const, to: [4], topic, content, timestamp: 1 });

describe('draft saving', () => {
  it('creates the draft on the first save and updates that one afterwards', async () => {
    const { api, calls } = fakeApi();
    const errors: string[] = [];
    const saver = new DraftSaver(api, () => null, (e) => errors.push(e), 10_000);
    saver.changed(body('h'));
    saver.changed(body('hi'));
    await saver.flush();
    saver.changed(body('hi there', 'dinner'));
    await saver.flush();
    await saver.sent();
    assert.deepEqual(calls, [
      'POST /drafts {"drafts":[{"type":"stream","to":[4],"topic":"lunch","content":"hi","timestamp":1}]}',
      'PATCH /drafts/7 {"draft":{"type":"stream","to":[4],"topic":"dinner","content":"hi there","timestamp":1}}',
      'DELETE /drafts/7 {}',
    ]);
    assert.deepEqual(errors, []);
  });

  it('saves on its own after the delay, and deletes a draft emptied', async () => {
    const { api, calls } = fakeApi();
    const saver = new DraftSaver(api, () => null, () => undefined, 5);
    saver.changed(body('hi'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    assert.equal(calls.length, 1);
    saver.changed(null);
    await saver.flush();
    assert.deepEqual(calls.slice(1), ['DELETE /drafts/7 {}']);
  });

  it('writes into a reopened draft, and skips a save that changes nothing', async () => {
    const model = fromRegister({ drafts: [{ id: 3, type: 'stream', to: [4], topic: 'lunch', content: 'hi', timestamp: 1 }] });
    const { api, calls } = fakeApi();
    const saver = new DraftSaver(api, () => model, () => undefined, 10_000);
    saver.begin(3);
    saver.changed(body('hi'));
    await saver.flush();
    saver.changed(body('hi!'));
    await saver.flush();
    assert.deepEqual(calls, ['PATCH /drafts/3 {"draft":{"type":"stream","to":[4],"topic":"lunch","content":"hi!","timestamp":1}}']);
    assert.equal(draftFor(model, draftKey({ type: 'stream', to: [4], topic: 'LUNCH' }))?.id, 3);
  });

  it('creates the draft again when it was deleted elsewhere, and reports other failures', async () => {
    const { api, calls } = fakeApi({ 'PATCH /drafts/3': new ApiError('Draft does not exist', 'BAD_REQUEST', 404) });
    const errors: string[] = [];
    const saver = new DraftSaver(api, () => null, (e) => errors.push(e), 10_000);
    saver.begin(3);
    saver.changed(body('hi'));
    await saver.flush();
    assert.deepEqual(calls.map((c) => c.split(' {')[0]), ['PATCH /drafts/3', 'POST /drafts']);
    const failing = fakeApi({ 'POST /drafts': new ApiError('User has disabled synchronizing drafts.', 'BAD_REQUEST', 400) });
    const other = new DraftSaver(failing.api, () => null, (e) => errors.push(e), 10_000);
    other.changed(body('hi'));
    await other.flush();
    assert.deepEqual(errors, ['User has disabled synchronizing drafts.']);
  });
});
