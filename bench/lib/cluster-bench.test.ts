// The cluster bench's readers: PostgreSQL's wire protocol counted in a proxy, Redis's INFO, the
// machine's CPU line, and the per-unit figures built from them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callsText, figure, perUnit, queuesPerProcess } from './cluster-report.js';
import { countsSince, statementKind, WireCounter } from './pg-wire.js';
import { machineCpu, redisCounters, redisDelta, withoutMeter } from './work-meter.js';

/** A typed protocol message: type byte, length (counting itself), body. */
function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}
const text = (s: string) => Buffer.from(`${s}\0`);
const startup = () => {
  const body = Buffer.concat([Buffer.from([0, 3, 0, 0]), text('user'), text('postgres'), Buffer.from([0])]);
  const head = Buffer.alloc(4);
  head.writeInt32BE(body.length + 4);
  return Buffer.concat([head, body]);
};
const parse = (sql: string) => message('P', Buffer.concat([text(''), text(sql), Buffer.from([0, 0])]));
const execute = () => message('E', Buffer.concat([text(''), Buffer.from([0, 0, 0, 0])]));
const query = (sql: string) => message('Q', text(sql));
const complete = (tag: string) => message('C', text(tag));
const ready = (status: 'I' | 'T') => message('Z', Buffer.from(status));
const dataRow = (bytes: number) => message('D', Buffer.alloc(bytes, 7));

/** Feeds `data` in pieces of `size` bytes, as sockets may cut it anywhere. */
function feed(into: (chunk: Buffer) => void, data: Buffer, size: number): void {
  for (let at = 0; at < data.length; at += size) into(data.subarray(at, at + size));
}

describe('WireCounter', () => {
  const conversation = {
    client: Buffer.concat([
      startup(),
      query('BEGIN'),
      parse('WITH m AS (INSERT INTO message VALUES ($1)) SELECT id FROM m'), message('B', Buffer.alloc(12)), execute(), message('S', Buffer.alloc(0)),
      parse('UPDATE stream SET first_message_id = $1'), execute(), message('S', Buffer.alloc(0)),
      query('COMMIT'),
      parse('select "id" from "user_profile" where "id" = $1'), execute(), message('S', Buffer.alloc(0)),
    ]),
    server: Buffer.concat([
      message('R', Buffer.from([0, 0, 0, 0])), ready('I'),
      complete('BEGIN'), ready('T'),
      message('1', Buffer.alloc(0)), message('2', Buffer.alloc(0)), dataRow(3000), complete('SELECT 1'), ready('T'),
      complete('UPDATE 1'), ready('T'),
      complete('COMMIT'), ready('I'),
      dataRow(20), dataRow(20), complete('SELECT 2'), ready('I'),
    ]),
  };

  for (const size of [1, 7, 1_000_000]) {
    it(`counts statements, transactions and rows, whatever the chunks (${size} bytes)`, () => {
      const counter = new WireCounter();
      feed((chunk) => counter.clientBytes(chunk), conversation.client, size);
      feed((chunk) => counter.serverBytes(chunk), conversation.server, size);
      assert.deepEqual(counter.counts, {
        statements: 3,
        control: 2,
        transactions: 2,
        byKind: { with: 1, update: 1, select: 1 },
        rows: { select: 3, update: 1 },
        bytesToServer: conversation.client.length,
        bytesFromServer: conversation.server.length,
      });
    });
  }

  it('reads the start-up again after a refused SSL request, and the one-byte answer', () => {
    const counter = new WireCounter();
    const sslRequest = Buffer.from([0, 0, 0, 8, 0x04, 0xd2, 0x16, 0x2f]);
    counter.clientBytes(Buffer.concat([sslRequest, startup(), query('SELECT 1')]));
    counter.serverBytes(Buffer.concat([Buffer.from('N'), ready('I'), complete('SELECT 1'), ready('I')]));
    assert.equal(counter.counts.statements, 1);
    assert.equal(counter.counts.transactions, 1);
    assert.deepEqual(counter.counts.rows, { select: 1 });
  });

  it('gives what changed between two readings', () => {
    const before = { statements: 2, control: 1, transactions: 1, byKind: { select: 2 }, rows: { select: 5 }, bytesToServer: 10, bytesFromServer: 20 };
    const after = { statements: 5, control: 1, transactions: 3, byKind: { select: 3, update: 2 }, rows: { select: 5, update: 2 }, bytesToServer: 40, bytesFromServer: 90 };
    assert.deepEqual(countsSince(before, after), { statements: 3, control: 0, transactions: 2, byKind: { select: 1, update: 2 }, rows: { update: 2 }, bytesToServer: 30, bytesFromServer: 70 });
  });

  it('names a statement by its first word', () => {
    assert.equal(statementKind('  (SELECT 1)'), 'select');
    assert.equal(statementKind('with m as (insert ...)'), 'with');
    assert.equal(statementKind(''), 'other');
  });
});

describe('Redis INFO', () => {
  const info = (commands: number, evals: number, infos: number, cpuSys: string) =>
    [
      '# Stats', `total_commands_processed:${commands}`, 'total_net_input_bytes:1000', 'total_net_output_bytes:5000', '',
      '# CPU', `used_cpu_sys:${cpuSys}`, 'used_cpu_user:1.250000', '',
      '# Commandstats', `cmdstat_eval:calls=${evals},usec=90,usec_per_call=1.00,rejected_calls=0,failed_calls=0`,
      `cmdstat_info:calls=${infos},usec=10,usec_per_call=1.00,rejected_calls=0,failed_calls=0`,
    ].join('\r\n');

  it('reads totals, CPU and calls by command, and leaves the meter\'s own INFO calls out of the difference', () => {
    const before = redisCounters(info(100, 40, 3, '0.500000'));
    assert.deepEqual(before, { commands: 100, calls: { eval: 40, info: 3 }, bytesIn: 1000, bytesOut: 5000, cpuMs: 1750 });
    const delta = redisDelta(before, redisCounters(info(131, 70, 4, '0.520000')));
    assert.deepEqual(delta, { commands: 30, calls: { eval: 30 }, bytesIn: 0, bytesOut: 0, cpuMs: 20 });
  });

  it('takes the first answer and the second command out of the bytes', () => {
    const delta = { commands: 1, calls: {}, bytesIn: 1000, bytesOut: 2000, cpuMs: 0 };
    // *4, then $4 INFO, $5 stats, $3 cpu, $12 commandstats; the answer is "$5\r\nhello\r\n".
    assert.deepEqual(withoutMeter(delta, 'hello'), { ...delta, bytesIn: 1000 - (4 + 10 + 11 + 9 + 19), bytesOut: 2000 - 11 });
  });
});

describe('machineCpu', () => {
  it('counts every state but idle and waiting for disk as busy, in ms', () => {
    assert.deepEqual(machineCpu('cpu  100 5 50 800 40 3 2 0 0 0\ncpu0 1 2 3\n'), { busyMs: 1600, totalMs: 10_000 });
  });
});

describe('per-unit figures', () => {
  it('divides each kind of work by the units of the stretch', () => {
    const per = perUnit({
      seconds: 8,
      cpuMs: { confab: 500, nginx: 50, postgres: 200, redis: 10, harness: 100, sqlProxy: 60 },
      machineBusy: 0.9,
      redis: { commands: 300, calls: { eval: 100, publish: 100, incr: 100 }, bytesIn: 20_000, bytesOut: 40_000, cpuMs: 10 },
      sql: { statements: 500, control: 200, transactions: 300, byKind: { select: 400, with: 100 }, rows: { select: 5400 }, bytesToServer: 1, bytesFromServer: 2 },
    }, 100);
    assert.equal(per.confabCpuMs, 5);
    assert.equal(per.redisCommands, 3);
    assert.deepEqual(per.redisCalls, { eval: 1, publish: 1, incr: 1 });
    assert.equal(per.sqlTransactions, 3);
    assert.deepEqual(per.sqlByKind, { select: 4, with: 1 });
    assert.equal(per.machineBusy, 0.9);
    assert.deepEqual(per.cores, [0.0625, 0.025, 0.00625, 0.00125, 0.0125, 0.0075]);
  });

  it('writes figures with three significant digits and lists counts most first', () => {
    assert.deepEqual([figure(0.012345), figure(12.345), figure(1234.5), figure(NaN)], ['0.0123', '12.3', '1,235', '-']);
    assert.equal(callsText({ get: 2, eval: 10, set: 0.004 }), 'eval 10, get 2');
  });

  it('counts queues by the holder named before the colon of their ids', () => {
    assert.deepEqual(queuesPerProcess(['a:1', 'b:2', 'a:3', 'c:4', 'a:5', 'b:6']), [3, 2, 1]);
    assert.deepEqual(queuesPerProcess(['0f1e', '2d3c']), [2]);
  });
});
