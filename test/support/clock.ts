// A clock tests move by hand, so time limits are tested without sleeping.
import type { Clock } from '../../src/services.js';

export class TestClock implements Clock {
  constructor(private seconds = 1_767_225_600) {}
  now(): number {
    return this.seconds;
  }
  set(seconds: number): void {
    this.seconds = seconds;
  }
  advance(seconds: number): void {
    this.seconds += seconds;
  }
}
