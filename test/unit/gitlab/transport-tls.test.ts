import { once } from 'node:events';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../src/gitlab/errors.js';
import { createTransport, type Transport } from '../../../src/gitlab/http.js';

// The transport hands Node's request function only the options got set: an https server must still be spoken to
// over TLS (a plain-text GET to it would send the token in the clear).
describe('a server at an https address', () => {
  let server: net.Server | undefined;
  let transport: Transport | undefined;
  afterEach(() => {
    transport?.close();
    server?.close();
  });

  it('is sent a TLS handshake, never the request in plain text', async () => {
    const firstBytes: Buffer[] = [];
    server = net.createServer((socket) => {
      socket.once('data', (d: Buffer) => {
        firstBytes.push(d);
        socket.destroy();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as net.AddressInfo;
    transport = createTransport({ baseUrl: `https://127.0.0.1:${port}`, retry: { limit: 0 }, timeoutMs: 2000 });
    const call = transport.request({ method: 'GET', path: 'user', token: 'tls-test-token-123' });
    await expect(call).rejects.toBeInstanceOf(UnavailableError);
    expect(firstBytes).toHaveLength(1);
    expect(firstBytes[0]?.[0]).toBe(0x16); // a TLS handshake record
    expect(firstBytes[0]?.toString('latin1')).not.toContain('tls-test-token-123');
  });
});
