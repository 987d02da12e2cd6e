// A TCP proxy in front of PostgreSQL that counts what its connections carry (pg-wire.ts), run as a
// child process of the cluster benchmark: argv upstream host and port; it answers
// { kind: 'listening', port } once ready and { kind: 'counts', counts } to each { kind: 'read' }.
import { connect, createServer } from 'node:net';
import { addCounts, emptyCounts, WireCounter, type WireCounts } from './pg-wire.js';

export type ToProxy = { kind: 'read' };
export type FromProxy = { kind: 'listening'; port: number } | { kind: 'counts'; counts: WireCounts };

const [host, port] = [process.argv[2] ?? '127.0.0.1', Number(process.argv[3] ?? 5432)];
const open = new Set<WireCounter>();
/** What connections that have closed carried. */
const closed = emptyCounts();

const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = connect(port, host);
  upstream.setNoDelay(true);
  const counter = new WireCounter();
  open.add(counter);
  client.on('data', (chunk: Buffer) => {
    counter.clientBytes(chunk);
    if (!upstream.write(chunk)) client.pause();
  });
  upstream.on('data', (chunk: Buffer) => {
    counter.serverBytes(chunk);
    if (!client.write(chunk)) upstream.pause();
  });
  upstream.on('drain', () => client.resume());
  client.on('drain', () => upstream.resume());
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    open.delete(counter);
    addCounts(closed, counter.counts);
    client.destroy();
    upstream.destroy();
  };
  for (const socket of [client, upstream]) {
    socket.on('error', end);
    socket.on('close', end);
  }
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send!({ kind: 'listening', port: typeof address === 'object' && address ? address.port : 0 } satisfies FromProxy);
});

process.on('message', (message: ToProxy) => {
  if (message.kind !== 'read') return;
  const total = emptyCounts();
  addCounts(total, closed);
  for (const counter of open) addCounts(total, counter.counts);
  process.send!({ kind: 'counts', counts: total } satisfies FromProxy);
});
process.on('disconnect', () => process.exit(0));
