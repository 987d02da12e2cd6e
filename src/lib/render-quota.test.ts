import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimitedError } from '../errors.js';
import { RenderQuota } from './render-quota.js';

/** The seconds the user is told to wait, or null when the render may go ahead. */
function waitOf(quota: RenderQuota, userId: number, nowMs: number): number | null {
  try {
    quota.check(userId, nowMs);
    return null;
  } catch (error) {
    assert.ok(error instanceof RateLimitedError);
    return (error as RateLimitedError).data['retry-after'] as number;
  }
}

describe('RenderQuota', () => {
  it('allows renders until the minute share is spent, failed ones included', () => {
    const quota = new RenderQuota(600);
    for (let i = 0; i < 2; i++) {
      assert.equal(waitOf(quota, 1, 0), null);
      quota.charge(1, 250, 0);
    }
    assert.equal(waitOf(quota, 1, 0), null, '500 of 600 ms spent');
    quota.charge(1, 250, 0);
    // 750 ms spent, 150 over: drained at 10 ms a second, 15 s to wait.
    assert.equal(waitOf(quota, 1, 0), 15);
    assert.equal(waitOf(quota, 2, 0), null, 'each user has a share of their own');
  });

  it('pays the share back over the minute', () => {
    const quota = new RenderQuota(600);
    quota.charge(1, 900, 0);
    assert.equal(waitOf(quota, 1, 20_000), 10);
    assert.equal(waitOf(quota, 1, 29_999), 0.001);
    assert.equal(waitOf(quota, 1, 30_000), 0.001);
    assert.equal(waitOf(quota, 1, 30_100), null);
    // Draining stops at nothing spent: a long idle time saves up no more than one share.
    quota.charge(1, 0, 10 * 60_000);
    quota.charge(1, 599, 10 * 60_000);
    assert.equal(waitOf(quota, 1, 10 * 60_000), null);
    quota.charge(1, 1, 10 * 60_000);
    assert.equal(waitOf(quota, 1, 10 * 60_000), 0.001);
  });
});
