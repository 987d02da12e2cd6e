// Seeded randomness for the data-set builder, so the same seed always builds the same set.

/** A small, fast 32-bit generator (mulberry32): uniform floats in [0, 1). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Standard normal deviate (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Log-normal: median times e^(sigma * N(0,1)). */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** A new generator whose sequence depends only on this one's seed and the label. */
  fork(label: string): Rng {
    let hash = this.state ^ 0x9e3779b9;
    for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193);
    return new Rng(hash >>> 0);
  }

  shuffle<T>(items: T[]): T[] {
    for (let i = items.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  }

  /**
   * k distinct items, each drawn with probability proportional to its weight
   * (Efraimidis-Spirakis: keep the k largest u^(1/w)).
   */
  weightedSample<T>(items: readonly T[], weights: readonly number[], k: number): T[] {
    const keyed = items.map((item, i) => ({ item, key: Math.log(1 - this.next()) / Math.max(weights[i]!, 1e-12) }));
    keyed.sort((a, b) => b.key - a.key);
    return keyed.slice(0, k).map((entry) => entry.item);
  }
}

/** Draws indexes 0..n-1 with fixed weights, in O(log n) per draw. */
export class WeightedPicker {
  private readonly cumulative: Float64Array;
  private readonly total: number;

  constructor(weights: readonly number[]) {
    if (weights.length === 0) throw new Error('WeightedPicker needs at least one weight');
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    weights.forEach((w, i) => {
      sum += Math.max(w, 0);
      this.cumulative[i] = sum;
    });
    this.total = sum;
  }

  pick(rng: Rng): number {
    const target = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Zipf weights 1/rank^exponent for ranks 1..n. */
export function zipfWeights(n: number, exponent: number): number[] {
  return Array.from({ length: n }, (_, i) => 1 / Math.pow(i + 1, exponent));
}
