import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../errors.js';
import { p, parseParams } from '../../http/params.js';
import { checkChannelDmCombination, narrowSchema, normalizeNarrow, rewriteWith } from './parse.js';
import type { NarrowTerm, Term } from './types.js';

/** Parses `narrow` the way GET /messages does. */
function parse(value: unknown): NarrowTerm[] {
  const raw = typeof value === 'string' ? value : JSON.stringify(value);
  return parseParams({ narrow: p.json(narrowSchema) }, { narrow: raw }, {}).values.narrow;
}

function errorOf(fn: () => unknown): { msg: string; code: string; data: Record<string, unknown> } {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ApiError, `expected an ApiError, got ${error}`);
    return { msg: error.message, code: error.code, data: error.data };
  }
  assert.fail('expected an error');
}

const term = (operator: string, operand: NarrowTerm['operand'], negated = false): NarrowTerm => ({ operator, operand, negated });

describe('narrow parameter shape', () => {
  it('accepts dicts and string pairs, negated defaulting to false', () => {
    assert.deepEqual(parse([['stream', 'general'], { operator: 'sender', operand: 5, negated: true }, { operator: 'dm', operand: [1, 2] }]), [
      term('stream', 'general'),
      term('sender', 5, true),
      term('dm', [1, 2]),
    ]);
  });

  it('ignores keys it does not know', () => {
    assert.deepEqual(parse([{ operator: 'is', operand: 'starred', extra: 1 }]), [term('is', 'starred')]);
  });

  const rejections: Array<[unknown, string]> = [
    ['not json', 'narrow is not valid JSON'],
    [{ operator: 'is' }, 'narrow is not a list'],
    [['stream'], 'Invalid narrow[0]: Value error, dict or list required'],
    [[['stream', 'general', 'x']], 'Invalid narrow[0]: Value error, element is not a string pair'],
    [[['stream', 5]], 'Invalid narrow[0]: Value error, element is not a string pair'],
    [[{ operator: 'stream' }], 'Invalid narrow[0]: Value error, operand is missing'],
    [[{ operator: 'stream', operand: null }], 'Invalid narrow[0]: Value error, operand is missing'],
    [[['is', 'dm'], { operand: 'x' }], 'Invalid narrow[1]: Value error, operator is missing'],
    [[{ operator: 5, operand: 'x' }], 'narrow[0]["operator"] is not a string'],
    [[{ operator: 'is', operand: 'dm', negated: 'maybe' }], 'narrow[0]["negated"] is not a boolean'],
    [[{ operator: 'stream', operand: [1] }], 'operand is not a string or integer'],
    [[{ operator: 'sender', operand: 1.5 }], 'operand is not a string or integer'],
    [[{ operator: 'dm', operand: 5 }], 'operand is not a string or an integer list'],
    [[{ operator: 'dm', operand: [1, 'x'] }], 'operand[1] is not an integer'],
    [[{ operator: 'topic', operand: 5 }], 'operand is not a string'],
    [[{ operator: 'pm_with', operand: [5] }], 'operand is not a string'],
    [[{ operator: 'search', operand: '  ' }], 'operand cannot be blank.'],
  ];
  for (const [value, msg] of rejections) {
    it(`rejects ${JSON.stringify(value)}`, () => {
      assert.deepEqual(errorOf(() => parse(value)), { msg, code: 'BAD_REQUEST', data: {} });
    });
  }

  it('reads loose spellings of negated', () => {
    assert.deepEqual(parse([{ operator: 'is', operand: 'dm', negated: 'true' }, { operator: 'is', operand: 'dm', negated: 0 }]), [
      term('is', 'dm', true),
      term('is', 'dm', false),
    ]);
  });
});

describe('normalizeNarrow', () => {
  it('maps legacy operator names to current ones', () => {
    assert.deepEqual(
      normalizeNarrow([
        term('stream', 'general'),
        term('streams', 'public'),
        term('pm-with', 'a@x.test'),
        term('pm_with', 'a@x.test'),
        term('group_pm_with', 3),
        term('is', 'private', true),
      ]),
      [
        { operator: 'channel', operand: 'general', negated: false },
        { operator: 'channels', operand: 'public', negated: false },
        { operator: 'dm', operand: 'a@x.test', negated: false },
        { operator: 'dm', operand: 'a@x.test', negated: false },
        { operator: 'group-pm-with', operand: 3, negated: false },
        { operator: 'is', operand: 'dm', negated: true },
      ],
    );
  });

  it('reads message ids from strings or integers', () => {
    assert.deepEqual(normalizeNarrow([term('id', '42'), term('id', 43), term('with', ' 7 ')]), [
      { operator: 'id', operand: 42, negated: false },
      { operator: 'id', operand: 43, negated: false },
      { operator: 'with', operand: 7, negated: false },
    ]);
  });

  const bad: Array<[NarrowTerm[], string]> = [
    [[term('bogus', 'x')], 'unknown operator bogus'],
    [[term('subject', 'x')], 'unknown operator subject'],
    [[term('is', 'bogus')], "unknown 'is' operand bogus"],
    [[term('has', 'emoji')], "unknown 'has' operand emoji"],
    [[term('in', 'elsewhere')], "unknown 'in' operand elsewhere"],
    [[term('channels', 'private')], 'unknown channels operand private'],
    [[term('id', 'abc')], 'Invalid message ID'],
    [[term('id', -3)], 'Invalid message ID'],
    [[term('id', 2147483648)], 'Invalid message ID'],
    [[term('with', 'abc')], "Invalid 'with' operator"],
    [[term('bogus', 'x'), term('with', 'abc')], "Invalid 'with' operator"],
  ];
  for (const [terms, desc] of bad) {
    it(`rejects ${JSON.stringify(terms.map((t) => [t.operator, t.operand]))}`, () => {
      assert.deepEqual(errorOf(() => normalizeNarrow(terms)), { msg: `Invalid narrow operator: ${desc}`, code: 'BAD_NARROW', data: { desc } });
    });
  }

  it('rejects two with terms', () => {
    assert.deepEqual(errorOf(() => normalizeNarrow([term('with', 1), term('with', 2)])), {
      msg: "Invalid narrow operator combination: Duplicate 'with' operators.",
      code: 'BAD_NARROW',
      data: { desc: "Duplicate 'with' operators." },
    });
  });
});

describe('channel and direct-message combination', () => {
  const t = (operator: string, operand: NarrowTerm['operand'], negated = false) => normalizeNarrow([term(operator, operand, negated)])[0]!;
  const conflict = 'No message can be both a channel message and direct message';
  const cases: Array<[Term[], boolean]> = [
    [[t('channel', 'a'), t('dm', 'x@y')], true],
    [[t('topic', 'a'), t('dm-including', 3)], true],
    [[t('channels', 'public'), t('is', 'dm')], true],
    [[t('group-pm-with', 3), t('stream', 'a')], true],
    [[t('is', 'dm', true), t('dm', [3])], true],
    [[t('channel', 'a', true), t('dm', 'x@y')], false],
    [[t('channel', 'a'), t('dm', 'x@y', true)], false],
    [[t('channel', 'a'), t('is', 'starred')], false],
    [[t('is', 'dm'), t('sender', 3)], false],
  ];
  for (const [terms, fails] of cases) {
    it(`${fails ? 'rejects' : 'allows'} ${terms.map((x) => `${x.negated ? '-' : ''}${x.operator}`).join(' + ')}`, () => {
      if (fails) assert.equal(errorOf(() => checkChannelDmCombination(terms)).msg, `Invalid narrow operator: ${conflict}`);
      else checkChannelDmCombination(terms);
    });
  }
});

describe('rewriteWith', () => {
  const terms = normalizeNarrow([term('channel', 'old'), term('topic', 'old topic'), term('is', 'starred'), term('with', 9)]);

  it('replaces the conversation terms by the message conversation', () => {
    assert.deepEqual(rewriteWith(terms, { type: 'stream', streamId: 4, topic: 'new topic' }), [
      { operator: 'channel', operand: 4, negated: false },
      { operator: 'topic', operand: 'new topic', negated: false },
      { operator: 'is', operand: 'starred', negated: false },
    ]);
    assert.deepEqual(rewriteWith(terms, { type: 'dm', userIds: [2, 5] }), [
      { operator: 'dm', operand: [2, 5], negated: false },
      { operator: 'is', operand: 'starred', negated: false },
    ]);
  });

  it('keeps the other terms of an inaccessible message when they name a conversation', () => {
    assert.deepEqual(rewriteWith(terms, null), terms.slice(0, 3));
    const dm = normalizeNarrow([term('dm', [3]), term('with', 9)]);
    assert.deepEqual(rewriteWith(dm, null), dm.slice(0, 1));
  });

  it('rejects an inaccessible message otherwise', () => {
    const loose = normalizeNarrow([term('channel', 'old'), term('with', 9)]);
    assert.equal(errorOf(() => rewriteWith(loose, null)).msg, "Invalid narrow operator: Invalid 'with' operator");
  });

  it('leaves narrows without a with term alone', () => {
    assert.deepEqual(rewriteWith(terms.slice(0, 2), null), terms.slice(0, 2));
  });
});
