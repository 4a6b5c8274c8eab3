// One timed turn of a client bench: `concurrency` lanes call `read` back to back for `seconds`; the calls made, the
// real time taken and this process's CPU over the turn.

export async function timedTurn(
  read: () => Promise<unknown>,
  o: { seconds: number; concurrency: number },
): Promise<{ calls: number; seconds: number; cpuUs: number }> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  const deadline = start + o.seconds * 1000;
  let calls = 0;
  const lane = async () => {
    while (performance.now() < deadline) {
      await read();
      calls++;
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, lane));
  const cpu = process.cpuUsage(cpu0);
  return { calls, seconds: (performance.now() - start) / 1000, cpuUs: cpu.user + cpu.system };
}
