// The CPU time this process spends from now on (every thread of it: the event loop, libuv's pool,
// the store's threads). Bounds on work use it rather than elapsed time, which grows whenever a
// busy machine keeps the test waiting for a core.
export function cpuStopwatch(): () => number {
  const start = process.cpuUsage();
  return () => {
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  };
}
