import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { describe, expect, it } from 'vitest';

// What slack/transport/turns.ts stands on: Node (libuv ≥ 1.45) accepts one waiting connection per turn of the event loop,
// so a turn that does the work of dozens of commands holds every new connection back. Should a Node release accept
// a backlog in one turn, this fails, and turns.ts should be measured again (bench/ab-builds.ts with it taken out).

const CONNECTIONS = 12;

describe('the premise of the work turns', () => {
  it('Node accepts connections waiting together one per event-loop turn', async () => {
    const server = net.createServer();
    const turnOf: number[] = [];
    let turn = 0;
    server.on('connection', (socket) => {
      turnOf.push(turn);
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    // The child connects while this process's loop is blocked (spawnSync): every connection waits in the backlog,
    // whatever the machine's speed, and the child ends once the kernel has taken them all.
    const child = spawnSync(process.execPath, [
      '-e',
      `const net = require('node:net'); let n = 0;
       for (let i = 0; i < ${CONNECTIONS}; i++) net.connect(${port}, '127.0.0.1', () => { if (++n === ${CONNECTIONS}) process.exit(0); });`,
    ]);
    expect(child.status).toBe(0);
    await new Promise<void>((resolve) => {
      const next = () => {
        turn++;
        if (turnOf.length < CONNECTIONS) setImmediate(next);
        else resolve();
      };
      setImmediate(next);
    });
    server.close();
    expect(new Set(turnOf).size).toBe(CONNECTIONS);
  });
});
