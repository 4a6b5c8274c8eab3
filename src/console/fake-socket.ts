import crypto from 'node:crypto';
import type http from 'node:http';
import type { Duplex } from 'node:stream';

// The Socket Mode side of the fake Slack: just enough WebSocket (RFC 6455) to let Bolt's Socket Mode
// client connect, receive Slack's `hello`, and see the socket drop. Frames from the client (acks,
// pings) are read only to answer pings and closes.

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(opcode: number, payload: Buffer): Buffer {
  const len = payload.length;
  const head =
    len < 126
      ? Buffer.from([0x80 | opcode, len])
      : len < 65_536
        ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff])
        : Buffer.concat([Buffer.from([0x80 | opcode, 127]), bigLength(len)]);
  return Buffer.concat([head, payload]);
}

function bigLength(len: number): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(len));
  return b;
}

/** Client frames are masked; returns whole frames read from `buf` and what is left over. */
function readFrames(buf: Buffer): { frames: { opcode: number; payload: Buffer }[]; rest: Buffer } {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let at = 0;
  while (buf.length - at >= 2) {
    const opcode = (buf[at] as number) & 0x0f;
    const masked = ((buf[at + 1] as number) & 0x80) !== 0;
    let len = (buf[at + 1] as number) & 0x7f;
    let head = 2;
    if (len === 126) {
      if (buf.length - at < 4) break;
      len = buf.readUInt16BE(at + 2);
      head = 4;
    } else if (len === 127) {
      if (buf.length - at < 10) break;
      len = Number(buf.readBigUInt64BE(at + 2));
      head = 10;
    }
    const maskLen = masked ? 4 : 0;
    if (buf.length - at < head + maskLen + len) break;
    const mask = buf.subarray(at + head, at + head + maskLen);
    const payload = Buffer.from(buf.subarray(at + head + maskLen, at + head + maskLen + len));
    if (masked) for (let i = 0; i < payload.length; i++) payload[i] = (payload[i] as number) ^ (mask[i % 4] as number);
    frames.push({ opcode, payload });
    at += head + maskLen + len;
  }
  return { frames, rest: buf.subarray(at) };
}

export class FakeSocketMode {
  private readonly sockets = new Set<Duplex>();
  private readonly waiting = new Set<Duplex>();
  /** While true, new connections get no `hello` (the client stays "connecting"). */
  holdHello = false;
  connections = 0;

  /** Answers the HTTP upgrade of a Socket Mode connection. */
  upgrade(req: http.IncomingMessage, socket: Duplex): void {
    const key = req.headers['sec-websocket-key'];
    if (typeof key !== 'string') {
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const accept = crypto.createHash('sha1').update(`${key}${GUID}`).digest('base64');
    socket.write(
      `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
    );
    this.connections += 1;
    this.sockets.add(socket);
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const { frames, rest } = readFrames(Buffer.concat([pending, chunk]));
      pending = rest;
      for (const f of frames) {
        if (f.opcode === 0x1) this.received(f.payload.toString('utf8'));
        if (f.opcode === 0x9) socket.write(frame(0xa, f.payload));
        if (f.opcode === 0x8) {
          socket.write(frame(0x8, f.payload));
          socket.end();
        }
      }
    });
    const forget = () => {
      this.sockets.delete(socket);
      this.waiting.delete(socket);
    };
    socket.on('close', forget);
    socket.on('error', forget);
    if (this.holdHello) this.waiting.add(socket);
    else this.hello(socket);
  }

  private readonly acks = new Map<string, (ack: Record<string, unknown>) => void>();

  private received(text: string): void {
    try {
      const msg = JSON.parse(text) as { envelope_id?: unknown };
      if (typeof msg.envelope_id === 'string') this.acks.get(msg.envelope_id)?.(msg as Record<string, unknown>);
    } catch {
      /* not JSON: nothing a test waits for */
    }
  }

  /**
   * Sends an envelope (`slash_commands`, `interactive`, `events_api`) to the first open socket, as Slack does,
   * and resolves with the client's ack (or null when none comes within `timeoutMs`).
   */
  send(type: string, payload: unknown, timeoutMs = 3000): Promise<Record<string, unknown> | null> {
    const socket = [...this.sockets].find((s) => !this.waiting.has(s));
    if (!socket) return Promise.resolve(null);
    const envelopeId = crypto.randomUUID();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.acks.delete(envelopeId);
        resolve(null);
      }, timeoutMs);
      this.acks.set(envelopeId, (ack) => {
        clearTimeout(timer);
        this.acks.delete(envelopeId);
        resolve(ack);
      });
      const envelope = { envelope_id: envelopeId, type, payload, accepts_response_payload: type !== 'events_api' };
      socket.write(frame(0x1, Buffer.from(JSON.stringify(envelope))));
    });
  }

  /** Sends `hello` to connections that were held. */
  releaseHello(): void {
    this.holdHello = false;
    for (const s of this.waiting) this.hello(s);
    this.waiting.clear();
  }

  /** Drops every open socket, as a network failure would (no close frame). */
  dropAll(): void {
    for (const s of this.sockets) s.destroy();
    this.sockets.clear();
    this.waiting.clear();
  }

  private hello(socket: Duplex): void {
    const payload = {
      type: 'hello',
      num_connections: 1,
      debug_info: { host: 'fake-slack' },
      connection_info: { app_id: 'A0APP' },
    };
    socket.write(frame(0x1, Buffer.from(JSON.stringify(payload))));
  }
}
