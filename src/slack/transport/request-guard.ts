import type { IncomingMessage } from 'node:http';
import { HTTPModuleFunctions, isValidSlackRequest } from '@slack/bolt';
import type { ClaimStore } from '../../store/claim-store.js';
import { readSlackBody } from './request-shape.js';

// The checks of the bot's receiver (signed-receiver.ts). The signature itself is Bolt's own check
// (isValidSlackRequest); around it go the checks Bolt's receiver leaves out. Bolt refuses a timestamp more than
// five minutes old but accepts one from the future, and it runs a request each time it is posted: a
// captured request could be replayed for five minutes (or forever, with a future timestamp). Here a
// timestamp must lie within five minutes either way, and each signature is accepted once. Bolt's own check
// reads only what follows the first `=` of the signature header, so `v0=<hex>=x` passed it while looking new to
// a memory keyed on the whole header: the header must be exactly `v0=` and 64 hex digits, and the memory keys
// on those digits. A verified body that is not one Slack sends never reaches Bolt either (see request-shape.ts).

/** How far a request's timestamp may be from the bot's clock, either way (Slack's own rule is 5 minutes). */
export const SIGNING_WINDOW_SEC = 5 * 60;

/** Signatures remembered at most; at ~170 requests a second for five minutes the oldest would be dropped. */
const REMEMBERED = 50_000;

/** Signatures seen within the signing window. */
export interface ReplayMemory {
  /** Records the signature; true when it was already there (the request is a replay). */
  seenBefore(signature: string, timestampSec: number, nowSec: number): boolean | Promise<boolean>;
}

/**
 * The memory of every replica and of the process after a restart: a signature is claimed in the database until
 * its timestamp leaves the signing window, and a second claim of it (here or on another replica) fails. This
 * process's own memory answers first, and alone while the database does not (the request then meets the
 * database's trouble itself, and the person is told).
 */
export function createStoredReplayMemory(claims: ClaimStore, onUnavailable: (err: unknown) => void): ReplayMemory {
  const local = createReplayMemory();
  return {
    async seenBefore(signature, timestampSec, nowSec) {
      if (local.seenBefore(signature, timestampSec, nowSec)) return true;
      try {
        // Held until the second after the last one the guard accepts the timestamp in (a timestamp exactly
        // SIGNING_WINDOW_SEC old still passes): a claim held only until that last second began could be taken over,
        // and the replay run, on another replica or after a restart, for the rest of that second.
        return !(await claims.claim(
          `signature:${signature}`,
          new Date((timestampSec + SIGNING_WINDOW_SEC + 1) * 1000),
        ));
      } catch (err) {
        onUnavailable(err);
        return false;
      }
    },
  };
}

/** A signature as the guard passes it: the 64 hex digits of Slack's v0 signature. */
const HEX_SIGNATURE = /^[0-9a-f]{64}$/;

/**
 * The key a signature is remembered under: its 32 bytes as a 32-character string rather than 64 hex digits cut out
 * of the header (which keep the header alive too), about half the memory per request remembered for five minutes.
 * The same digits always give the same key and different digits different keys; anything else (only tests pass
 * anything else) is kept as it is.
 */
function compactKey(signature: string): string {
  return HEX_SIGNATURE.test(signature) ? Buffer.from(signature, 'hex').toString('latin1') : signature;
}

/** One process's memory, bounded (for a bot without a database to share, e.g. unit tests). */
export function createReplayMemory(max = REMEMBERED): ReplayMemory & { readonly size: number } {
  // signature (compactKey) → the second after which its timestamp is too old to be accepted anyway
  const expiry = new Map<string, number>();
  return {
    seenBefore(signature, timestampSec, nowSec) {
      for (const [sig, until] of expiry) {
        if (until >= nowSec) break; // arrival order: the first one still valid ends the sweep (close enough)
        expiry.delete(sig);
      }
      const key = compactKey(signature);
      if (expiry.has(key)) return true;
      expiry.set(key, timestampSec + SIGNING_WINDOW_SEC);
      if (expiry.size > max) expiry.delete(expiry.keys().next().value as string);
      return false;
    },
    get size() {
      return expiry.size;
    },
  };
}

export type Verdict =
  /** Signed, in its window, seen for the first time: `body` is read as Bolt reads it, so Bolt need not read it again. */
  | { ok: true; body: Record<string, unknown> }
  /** Slack's SSL check: unsigned by design, answered 200 and nothing runs, whatever else the form holds. */
  | { ok: true; sslCheck: true }
  | {
      ok: false;
      status: 400 | 401 | 413;
      reason: 'unsigned' | 'stale' | 'future' | 'bad signature' | 'replayed' | 'too large' | 'not a Slack body';
      /** For a body that is not one Slack sends: what it is instead. */
      detail?: string;
    };

/** Slack's v0 signature, and nothing else: the 64 hex digits are what identifies a request. */
const SIGNATURE = /^v0=([0-9a-f]{64})$/;

/** The request's body as Bolt's own reader gathers it (raw-body, with its limit), or null when it is too large. */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  try {
    return (await HTTPModuleFunctions.bufferIncomingMessage(req, limit)).rawBody;
  } catch {
    return null;
  }
}

const header = (req: IncomingMessage, name: string) => {
  const v = req.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * Reads the body and decides whether the request may run: signed with the signing secret,
 * a timestamp within five minutes of now either way, and a signature not seen before.
 */
export async function checkSignedRequest(
  req: IncomingMessage,
  o: { signingSecret: string; memory: ReplayMemory; now?: () => number; bodyLimit?: number },
): Promise<Verdict> {
  const rawBody = await readBody(req, o.bodyLimit ?? HTTPModuleFunctions.defaultBodyLimit);
  if (!rawBody) return { ok: false, status: 413, reason: 'too large' };
  const raw = rawBody.toString();
  // Slack's SSL check is unsigned by design: it is answered, and nothing in it runs (see Verdict).
  if (header(req, 'content-type') === 'application/x-www-form-urlencoded' && /(^|&)ssl_check=1(&|$)/.test(raw)) {
    return { ok: true, sslCheck: true };
  }
  const signatureHeader = header(req, 'x-slack-signature');
  const timestampHeader = header(req, 'x-slack-request-timestamp') ?? '';
  const timestamp = /^\d{1,12}$/.test(timestampHeader) ? Number(timestampHeader) : Number.NaN;
  if (!signatureHeader || !Number.isSafeInteger(timestamp)) return { ok: false, status: 401, reason: 'unsigned' };
  const signature = SIGNATURE.exec(signatureHeader)?.[1];
  if (!signature) return { ok: false, status: 401, reason: 'bad signature' };
  const nowMs = (o.now ?? Date.now)();
  const nowSec = Math.floor(nowMs / 1000);
  if (timestamp > nowSec + SIGNING_WINDOW_SEC) return { ok: false, status: 401, reason: 'future' };
  if (timestamp < nowSec - SIGNING_WINDOW_SEC) return { ok: false, status: 401, reason: 'stale' };
  const signed = isValidSlackRequest({
    signingSecret: o.signingSecret,
    body: raw,
    headers: { 'x-slack-signature': signatureHeader, 'x-slack-request-timestamp': timestamp },
    nowMilliseconds: nowMs,
  });
  if (!signed) return { ok: false, status: 401, reason: 'bad signature' };
  const read = readSlackBody(header(req, 'content-type'), raw);
  if (!read.ok) return { ok: false, status: 400, reason: 'not a Slack body', detail: read.problem };
  // Only authentic requests are remembered, so forged ones cannot crowd real signatures out.
  if (await o.memory.seenBefore(signature, timestamp, nowSec)) return { ok: false, status: 401, reason: 'replayed' };
  return { ok: true, body: read.body };
}
