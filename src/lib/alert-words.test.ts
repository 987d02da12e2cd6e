import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanAlertWords, containsWord, hasAlertWord } from './alert-words.js';

describe('alert words', () => {
  it('cleans: trims, drops empties, keeps one spelling per word', () => {
    assert.deepEqual(cleanAlertWords(['  Alpha ', '', '   ', 'alpha', 'beta', 'BETA']), ['Alpha', 'beta']);
  });

  it('matches whole words only, in any case', () => {
    assert.equal(hasAlertWord('The Deploy is done', ['deploy']), true);
    assert.equal(hasAlertWord('deploy', ['deploy']), true);
    assert.equal(hasAlertWord('(deploy), please', ['deploy']), true);
    assert.equal(hasAlertWord('redeploy and deployment', ['deploy']), false);
    assert.equal(hasAlertWord('deploy_now', ['deploy']), false);
    assert.equal(hasAlertWord('nothing here', []), false);
  });

  it('matches phrases and words with punctuation', () => {
    assert.equal(hasAlertWord('we use C++ daily', ['c++']), true);
    assert.equal(hasAlertWord('on call tonight', ['on call']), true);
    assert.equal(hasAlertWord('moon calling', ['on call']), false);
  });

  it('treats letters beyond ASCII as word characters', () => {
    assert.equal(containsWord('café au lait', 'café'), true);
    assert.equal(containsWord('cafés', 'café'), false);
    assert.equal(containsWord('ünd', 'nd'), false);
    assert.equal(containsWord('𝒜bc', 'bc'), false);
    assert.equal(containsWord('😀 bc', 'bc'), true);
  });

  it('finds a later whole-word occurrence after an embedded one', () => {
    assert.equal(containsWord('alerting alert', 'alert'), true);
  });
});
