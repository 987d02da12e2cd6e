// Drafts through the drafts API: what is being written is saved a moment after the last keystroke
// (created once, then updated), deleted when sent or emptied, and found again by its recipient.
import type { Api } from './api.js';
import { draftKey } from './compose-rules.js';
import type { DraftDict, Model } from './model.js';

export const SAVE_DELAY_MS = 800;

type DraftBody = Omit<DraftDict, 'id'>;

/** The saved draft for a recipient key, the most recently edited if there are several. */
export function draftFor(model: Model, key: string): DraftDict | undefined {
  let found: DraftDict | undefined;
  for (const d of model.drafts.values()) if (draftKey(d) === key && (!found || d.timestamp > found.timestamp)) found = d;
  return found;
}

/** One compose session's draft: created on the first save, then updated, deleted when sent. */
interface Session {
  id: number | undefined;
}

export class DraftSaver {
  private session: Session = { id: undefined };
  private pending: { session: Session; body: DraftBody | null } | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Saves run one after another, so a create is never raced by an update of the same draft. */
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly api: Api,
    private readonly model: () => Model | null,
    private readonly onError: (message: string) => void,
    private readonly delayMs = SAVE_DELAY_MS,
  ) {}

  /** Writing starts over on a saved draft (reopened) or a new one: what was pending is saved first. */
  begin(id: number | undefined): void {
    void this.flush();
    this.session = { id };
  }

  /** What is written changed; null when there is nothing to keep (the draft goes). */
  changed(body: DraftBody | null): void {
    this.pending = { session: this.session, body };
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), this.delayMs);
  }

  /** Saves what is pending now. */
  flush(): Promise<unknown> {
    clearTimeout(this.timer);
    const pending = this.pending;
    this.pending = undefined;
    if (pending) this.enqueue(() => this.save(pending.session, pending.body));
    return this.chain;
  }

  /** The message was sent: its draft goes, and the next message is a new one. */
  sent(): Promise<unknown> {
    clearTimeout(this.timer);
    this.pending = undefined;
    const session = this.session;
    this.session = { id: undefined };
    this.enqueue(() => this.save(session, null));
    return this.chain;
  }

  private enqueue(step: () => Promise<void>): void {
    this.chain = this.chain.then(step).catch((e: Error) => this.onError(e.message));
  }

  private async save(session: Session, body: DraftBody | null): Promise<void> {
    const id = session.id;
    if (body === null) {
      if (id === undefined) return;
      session.id = undefined;
      this.model()?.drafts.delete(id);
      // Already gone (deleted in another tab): nothing left to do.
      await this.api.call('DELETE', `/drafts/${id}`).catch(ignoreNotFound);
      return;
    }
    if (id !== undefined) {
      const saved = this.model()?.drafts.get(id);
      if (saved && saved.content === body.content && saved.topic === body.topic && saved.to.join() === body.to.join()) return;
      const updated = await this.api.call('PATCH', `/drafts/${id}`, { draft: body }).then(
        () => true,
        (e: { status?: number }) => (e.status === 404 ? false : Promise.reject(e)),
      );
      if (updated) return;
    }
    const { ids } = await this.api.call<{ ids: number[] }>('POST', '/drafts', { drafts: [body] });
    session.id = ids[0];
  }
}

function ignoreNotFound(e: { status?: number }): void {
  if (e.status !== 404) throw e;
}
