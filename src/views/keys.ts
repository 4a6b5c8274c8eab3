import { createHash } from 'node:crypto';
import type { Refusal } from '../errors.js';
import { onServer } from '../gitlab/project.js';
import type { KeyWithUser } from '../gitlab/schemas.js';
import { type Block, context, fields, header, message, type SlackMessage } from './blocks.js';
import { type CardContext, when } from './common.js';
import { code, linked, type Md, md } from './mrkdwn.js';

// An SSH key as a card: its title, a fingerprint, when it was added and whose it is. The key itself is never
// shown: a fingerprint is what people compare (`ssh-keygen -lf`), and the whole key is long and no one's business.

/** The key's type and its SHA-256 fingerprint as `ssh-keygen -l` prints it; a short tail when it will not decode. */
export function keyFingerprint(key: string): { type: string | null; fingerprint: string } {
  const [type, blob] = key.trim().split(/\s+/);
  if (!blob) return { type: null, fingerprint: shortTail(type ?? '') };
  const bytes = Buffer.from(blob, 'base64');
  // Buffer.from skips what is not base64: only a blob that encodes back to itself is a real key.
  if (bytes.length === 0 || bytes.toString('base64').replace(/=+$/, '') !== blob.replace(/=+$/, '')) {
    return { type: type ?? null, fingerprint: shortTail(blob) };
  }
  const digest = createHash('sha256').update(bytes).digest('base64').replace(/=+$/, '');
  return { type: type ?? null, fingerprint: `SHA256:${digest}` };
}

const shortTail = (text: string) => (text.length > 8 ? `…${text.slice(-8)}` : '…');

export function buildKeyCard(key: KeyWithUser, c: CardContext): SlackMessage {
  const { type, fingerprint } = keyFingerprint(key.key);
  const owner = key.user;
  const created = when(key.created_at, c);
  const blocks: Block[] = [
    header(`:key: SSH key ${key.id} · ${key.title}`),
    fields([
      md`*Owner*\n${linked(onServer(c.serverUrl, owner.web_url), `${owner.name} (@${owner.username})`)}`,
      md`*Added*\n${created}`,
      md`*Fingerprint*\n${code(fingerprint)}`,
      md`*Type*\n${type ?? '—'}`,
    ]),
    context([md`The key itself is not shown; compare fingerprints with ${code('ssh-keygen -lf <file>')}.`]),
  ];
  return message(md`SSH key ${key.id} (${key.title}) of @${owner.username}: ${fingerprint}`, blocks);
}

export function keyRefusal(r: Refusal, label: string): Md | null {
  if (r.reason === 'admin_only') {
    return md`Only administrators can look up keys (403), so ${label.charAt(0).toLowerCase()}${label.slice(1)} was not shown.`;
  }
  if (r.reason === 'no_key') return md`${label} was not found (404): there is no SSH key with that id.`;
  return null;
}
