// Redis round trips for /metrics: every command this process sends (the bus's publishes, member
// and queue look-ups, rate-limit scripts, turn locks), counted by command and outcome, with its
// time from being written to its answer. ioredis reports each command on Node's diagnostics
// channel `ioredis:command`, so nothing wraps the client; a command queued while Redis is away
// is reported when it is finally written.
import { tracingChannel } from 'node:diagnostics_channel';
import type { Counter, Histogram } from 'prom-client';

/** Redis answers in well under a millisecond on a LAN; the upper buckets catch an overloaded or distant one. */
export const REDIS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];

interface CommandContext {
  command: string;
  /** Set here when the command starts, on the context ioredis passes to every sub-event. */
  confabStartedAt?: bigint;
}

/** Counts every ioredis command from now on into these metrics; returns the function that stops counting. */
export function countRedisCommands(commands: Counter<'command' | 'result'>, duration: Histogram<'command'>): () => void {
  const channel = tracingChannel<string, CommandContext>('ioredis:command');
  const settled = (result: 'ok' | 'error') => (context: CommandContext) => {
    const command = context.command.toLowerCase();
    commands.inc({ command, result });
    if (context.confabStartedAt !== undefined) duration.observe({ command }, Number(process.hrtime.bigint() - context.confabStartedAt) / 1e9);
  };
  const handlers = {
    start(context: CommandContext) {
      context.confabStartedAt = process.hrtime.bigint();
    },
    asyncEnd(context: CommandContext & { error?: unknown }) {
      // A failed command reaches asyncEnd too, after `error`, which counted it.
      if (context.error === undefined) settled('ok')(context);
    },
    error: settled('error'),
  };
  channel.subscribe(handlers as never);
  return () => channel.unsubscribe(handlers as never);
}
