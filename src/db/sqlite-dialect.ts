// Kysely's SQLite dialect with a first-come-first-served connection lock. Kysely's own lock wakes
// every waiter on each release, so n concurrent requests cost n² wake-ups (a thousand long-polls
// coming back at once took seconds); here each release hands the connection to the next in line.
import { type DatabaseConnection, type Driver, SqliteDialect, type SqliteDialectConfig, SqliteDriver } from 'kysely';

class FifoLock {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

class FifoSqliteDriver extends SqliteDriver {
  private connection!: DatabaseConnection;
  private readonly lock = new FifoLock();

  override async init(): Promise<void> {
    await super.init();
    // The base driver's single connection, taken once; from here on this lock guards it.
    this.connection = await super.acquireConnection();
    await super.releaseConnection();
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.lock.acquire();
    return this.connection;
  }

  override async releaseConnection(): Promise<void> {
    this.lock.release();
  }
}

export class FifoSqliteDialect extends SqliteDialect {
  constructor(private readonly settings: SqliteDialectConfig) {
    super(settings);
  }

  override createDriver(): Driver {
    return new FifoSqliteDriver(this.settings);
  }
}
