// The baseline of every benchmark run: a bare Fastify server with one JSON route, started
// the same way as Confab (plain node on JavaScript). Usage: node bench/baseline-server.mjs PORT
import Fastify from 'fastify';

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error('usage: node bench/baseline-server.mjs PORT');
  process.exit(2);
}
const app = Fastify({ logger: false });
app.get('/baseline', async () => ({ result: 'success', msg: '', user_id: 8, full_name: 'Baseline Route' }));
await app.listen({ host: '127.0.0.1', port });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => void app.close().then(() => process.exit(0)));
}
