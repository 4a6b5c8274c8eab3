import net from 'node:net';

/**
 * A port nothing listens on right now. Racy for a process started later (another may take the port in between):
 * start it with PORT=0 and read the port it reports instead (spawn-bot.ts: `waitForPort`).
 * @deprecated kept for tests written before PORT=0; no test of this suite uses it.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}
