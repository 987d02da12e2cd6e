// The fan-out benchmark's baseline: the least a Node.js server can do for the same clients. Bare
// node:http, queues in memory, no store, no credentials checked, just enough of the API for
// bench/events.ts (register, poll, send, delete a queue); each message event is about the size of
// Confab's. Usage: node bench/longpoll-baseline.mjs PORT
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: node bench/longpoll-baseline.mjs PORT');
  process.exit(2);
}

/** queue id -> { events, nextId, waiting response or null } */
const queues = new Map();
let messageId = 0;

function reply(res, body) {
  const text = JSON.stringify({ result: 'success', msg: '', ...body });
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function messageEvent(form) {
  const id = ++messageId;
  const now = Math.floor(Date.now() / 1000);
  return {
    type: 'message',
    flags: [],
    message: {
      id, sender_id: 8, content: `<p>${form.get('content') ?? ''}</p>`, recipient_id: 10, timestamp: now, client: 'website',
      subject: form.get('topic') ?? '', topic_links: [], is_me_message: false, reactions: [], submessages: [],
      sender_full_name: 'Baseline Sender', sender_email: 'sender@baseline.test', sender_realm_str: 'baseline',
      display_recipient: form.get('to') ?? '', type: 'stream', stream_id: 1, avatar_url: null, content_type: 'text/html',
      edit_history: [], last_edit_timestamp: null,
    },
  };
}

function push(queue, event) {
  queue.events.push({ ...event, id: queue.nextId++ });
  if (queue.waiting) {
    const res = queue.waiting;
    queue.waiting = null;
    reply(res, { events: queue.events, queue_id: queue.id });
  }
}

function readForm(req) {
  return new Promise((resolve) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8'))));
  });
}

const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://baseline');
  const path = url.pathname.replace(/^\/api\/v1/, '');
  if (path === '/register' && req.method === 'POST') {
    await readForm(req);
    const queue = { id: randomUUID(), events: [], nextId: 0, waiting: null };
    queues.set(queue.id, queue);
    return reply(res, { queue_id: queue.id, last_event_id: -1 });
  }
  if (path === '/events') {
    const queue = queues.get(url.searchParams.get('queue_id'));
    if (!queue) {
      res.writeHead(400, { 'content-type': 'application/json' });
      return res.end('{"result":"error","msg":"Bad event queue ID","code":"BAD_EVENT_QUEUE_ID"}');
    }
    if (req.method === 'DELETE') {
      queues.delete(queue.id);
      return reply(res, {});
    }
    const acknowledged = Number(url.searchParams.get('last_event_id'));
    queue.events = queue.events.filter((event) => event.id > acknowledged);
    if (queue.events.length > 0) return reply(res, { events: queue.events, queue_id: queue.id });
    queue.waiting = res;
    res.once('close', () => {
      if (queue.waiting === res) queue.waiting = null;
    });
    return;
  }
  if (path === '/messages' && req.method === 'POST') {
    const event = messageEvent(await readForm(req));
    for (const queue of queues.values()) push(queue, event);
    return reply(res, { id: event.message.id });
  }
  if (path === '/server_settings') return reply(res, {});
  res.writeHead(404);
  res.end();
});

server.keepAliveTimeout = 72_000;
server.listen(port, '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => process.exit(0));
}
