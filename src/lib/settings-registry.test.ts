import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isTimeZone, mergeSettings, parseSetting, resolveSettings, SETTINGS } from './settings-registry.js';

describe('settings registry', () => {
  it('parses booleans and integers as JSON, strings as sent', () => {
    assert.equal(parseSetting('enable_sounds', 'false'), false);
    assert.equal(parseSetting('color_scheme', '2'), 2);
    assert.equal(parseSetting('web_home_view', 'inbox'), 'inbox');
    assert.throws(() => parseSetting('enable_sounds', 'nope'), { message: 'enable_sounds is not valid JSON' });
    assert.throws(() => parseSetting('enable_sounds', '"true"'), { message: 'enable_sounds is not a boolean' });
    assert.throws(() => parseSetting('color_scheme', '2.5'), { message: 'color_scheme is not an integer' });
    assert.throws(() => parseSetting('color_scheme', '0'), { message: 'Invalid color_scheme: Value error, Not in the list of possible values' });
  });

  it('maps the emoji set vendor names to SPEC.md names', () => {
    assert.equal(parseSetting('emojiset', 'google'), 'vendora');
    assert.equal(parseSetting('emojiset', 'google-blob'), 'vendora-blob');
    assert.equal(parseSetting('emojiset', 'twitter'), 'vendorb');
    assert.equal(parseSetting('emojiset', 'vendorb'), 'vendorb');
    assert.throws(() => parseSetting('emojiset', 'apple'), { message: 'Invalid emojiset: Value error, Not in the list of possible values' });
  });

  it('checks languages, time zones, sounds and the batching period', () => {
    assert.equal(parseSetting('default_language', 'pt_BR'), 'pt_BR');
    assert.throws(() => parseSetting('default_language', 'klingon'), { message: 'Invalid default_language' });
    assert.ok(isTimeZone('Europe/Paris') && isTimeZone('UTC') && isTimeZone('America/Argentina/Buenos_Aires'));
    assert.ok(!isTimeZone('') && !isTimeZone('Nowhere/Special') && !isTimeZone('+05:00') && !isTimeZone('../etc'));
    assert.equal(parseSetting('notification_sound', 'none'), 'none');
    assert.throws(() => parseSetting('notification_sound', 'ding'), { message: "Invalid notification sound 'ding'" });
    assert.equal(parseSetting('email_notifications_batching_period_seconds', '604800'), 604800);
    assert.throws(() => parseSetting('email_notifications_batching_period_seconds', '0'), { message: 'Invalid email batching period: 0 seconds' });
  });

  it('stores only what differs from the defaults', () => {
    const stored = mergeSettings('{}', { enable_sounds: false, color_scheme: 1 });
    assert.deepEqual(JSON.parse(stored), { enable_sounds: false });
    assert.equal(resolveSettings(stored).enable_sounds, false);
    assert.deepEqual(JSON.parse(mergeSettings(stored, { enable_sounds: true })), {});
  });

  it('has a default of the declared type and, for enumerations, an allowed one', () => {
    for (const [name, spec] of Object.entries(SETTINGS)) {
      assert.equal(typeof spec.default, spec.type === 'bool' ? 'boolean' : spec.type === 'int' ? 'number' : 'string', name);
      if (spec.values && spec.values.length > 0) assert.ok(spec.values.includes(spec.default), name);
    }
  });
});
