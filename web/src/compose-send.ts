// Sending with local echo: the message shows at once (sending), goes to POST /messages with our
// local_id and queue_id, and its event replaces the echo; a failure marks it failed, for a retry.
// Every attempt carries the echo's Idempotency-Key, so a retry of a send whose answer was lost
// (but which the server stored) gets the stored message instead of posting it again.
import type { Params } from './api.js';
import { echoHtml, findLocalEcho, localEcho, markEcho, removeLocalEcho } from './compose-echo.js';
import type { Person } from './model.js';
import { api, model, queueId, republish } from './store.js';

/** Shows the message in the feed now and sends it; resolves once the server answered. */
export function sendWithEcho(params: Params, content: string, recipients: Person[]): Promise<void> {
  const m = model.value;
  if (!m) return Promise.resolve();
  const echo = localEcho(m, { localId: '', params, me: m.me, recipients, now: Date.now(), html: echoHtml(content) });
  const localId = String(echo.id);
  echo.local = { ...echo.local!, localId };
  m.messages.set(echo.id, echo);
  republish();
  return deliver(localId);
}

async function deliver(localId: string): Promise<void> {
  const m = model.value;
  const echo = m && findLocalEcho(m, localId);
  if (!echo?.local) return;
  try {
    const params = { ...echo.local.params, local_id: localId, ...(queueId ? { queue_id: queueId } : {}) };
    const { id } = await api.sendMessage(params, echo.local.idempotencyKey);
    // Normally the event has replaced the echo already or will; if the message is here without it, tidy up.
    const now = model.value;
    if (now?.messages.has(id) && removeLocalEcho(now, localId)) republish();
  } catch (error) {
    const now = model.value;
    if (now) markEcho(now, localId, 'failed', (error as Error).message);
    republish();
  }
}

export function retrySend(localId: string): Promise<void> {
  const m = model.value;
  if (!m) return Promise.resolve();
  markEcho(m, localId, 'sending');
  republish();
  return deliver(localId);
}

export function discardSend(localId: string): void {
  const m = model.value;
  if (m && removeLocalEcho(m, localId)) republish();
}
