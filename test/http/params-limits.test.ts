import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { InvalidJsonError, NotFoundError } from '../../src/errors.js';
import { collectRaw, p, parseParams } from '../../src/http/params.js';

const shape = { message_id: p.pathInt() };
const parse = (segment: string) => parseParams(shape, {}, { message_id: segment }).values.message_id;

describe('p.pathInt()', () => {
  it('reads ids from 0 to the largest 32-bit integer', () => {
    assert.equal(parse('0'), 0);
    assert.equal(parse('42'), 42);
    assert.equal(parse('2147483647'), 2147483647);
  });

  it('treats numbers no id column can hold as an unknown URL, not a store error', () => {
    for (const segment of ['2147483648', '9999999999', '99999999999', '9007199254740993']) {
      assert.throws(() => parse(segment), (error: unknown) => error instanceof NotFoundError && error.status === 404, segment);
    }
  });

  it('treats anything but digits as an unknown URL', () => {
    for (const segment of ['', '-1', '1.5', '1e3', ' 1', 'abc', '0x1']) {
      assert.throws(() => parse(segment), NotFoundError, segment);
    }
  });
});

describe('collectRaw()', () => {
  it('turns JSON body values back into the strings parameters arrive as', () => {
    assert.deepEqual(collectRaw({ a: '1' }, { b: 5, c: true, d: { x: [1] }, e: 'text' }), {
      a: '1',
      b: '5',
      c: 'true',
      d: '{"x":[1]}',
      e: 'text',
    });
  });

  it('answers Malformed JSON for values nested deeper than can be encoded again', () => {
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    assert.throws(() => collectRaw({}, { to: { deep } }), (error: unknown) => {
      assert.ok(error instanceof InvalidJsonError);
      assert.deepEqual(error.body(), { result: 'error', msg: 'Malformed JSON', code: 'INVALID_JSON' });
      return true;
    });
  });
});
