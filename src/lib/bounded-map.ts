// Memos of pure results that repeat (formatted dates, rendered formulas, linkifier matches) must
// not grow without end on a long-running server: this map keeps at most `limit` entries and
// forgets the oldest first.
export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly limit: number) {
    super();
  }

  override set(key: K, value: V): this {
    if (this.size >= this.limit && !this.has(key)) this.delete(this.keys().next().value!);
    return super.set(key, value);
  }
}

/** The memo's value for the key, computed and kept on a miss. */
export function remember<K, V>(memo: Map<K, V>, key: K, compute: () => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = compute();
    memo.set(key, value);
  }
  return value;
}
