// Queries compiled once and run many times with new parameter values. Building and compiling a
// Kysely query costs more than running a primary-key lookup on SQLite, so the few queries every
// request runs (authentication) skip that step.
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { Store } from './connect.js';

/** Stands in for argument i while the query is compiled. */
class Slot {
  constructor(readonly index: number) {}
}

export interface PreparedQuery<A extends unknown[], R> {
  /** All rows, on the given database (compiled on first use for each database instance). */
  all(db: Kysely<any>, ...args: A): Promise<R[]>;
  first(db: Kysely<any>, ...args: A): Promise<R | undefined>;
  /**
   * All rows, on SQLite at once on the event loop's own small connection (Store.readNow), else as
   * all() on the store's database. Only for reads of a few index lookups: for them a trip to a
   * reader thread costs more than the read.
   */
  allNow(store: Store, ...args: A): Promise<R[]>;
  /** The compiled query with these values, for running it some other way (Store.readNow). */
  bind(db: Kysely<any>, ...args: A): CompiledQuery<R>;
}

/**
 * `build` must use each argument only as plain values (a comparison operand, a limit), never to
 * choose the query's shape, because it runs once with placeholders.
 */
export function prepare<A extends unknown[], R>(arity: number, build: (db: Kysely<any>, ...args: A) => Compilable<R>): PreparedQuery<A, R> {
  const compiled = new WeakMap<Kysely<any>, { query: CompiledQuery<R>; slots: Array<number | null> }>();

  function compile(db: Kysely<any>) {
    let entry = compiled.get(db);
    if (!entry) {
      const slots = Array.from({ length: arity }, (_, i) => new Slot(i)) as unknown as A;
      const query = build(db, ...slots).compile();
      const positions = query.parameters.map((value) => (value instanceof Slot ? value.index : null));
      if (new Set(positions.filter((p) => p !== null)).size !== arity) throw new Error('prepare: every argument must appear as a parameter');
      entry = { query, slots: positions };
      compiled.set(db, entry);
    }
    return entry;
  }

  function bind(db: Kysely<any>, ...args: A): CompiledQuery<R> {
    const { query, slots } = compile(db);
    const parameters = query.parameters.map((value, i) => (slots[i] === null ? value : args[slots[i]!]));
    return { ...query, parameters };
  }

  async function all(db: Kysely<any>, ...args: A): Promise<R[]> {
    const result = await db.executeQuery<R>(bind(db, ...args));
    return result.rows;
  }

  async function allNow(store: Store, ...args: A): Promise<R[]> {
    if (store.readNow) {
      try {
        return store.readNow(bind(store.db, ...args));
      } catch {
        // Not possible now (the connection is busy): the usual way.
      }
    }
    return all(store.db, ...args);
  }

  return {
    all,
    first: async (db, ...args) => (await all(db, ...args))[0],
    allNow,
    bind,
  };
}
