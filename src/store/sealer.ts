import crypto from 'node:crypto';

// AES-256-GCM with a random 96-bit nonce per value. A sealed value names the key that
// sealed it (a short id derived from the key), so that after a rotation values sealed
// under the previous key can still be opened and then re-sealed under the current one.
// The associated data binds a value to its row: a sealed token copied into another
// person's row does not open.

const FORMAT = 'v1';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export interface Sealed {
  keyId: string;
  value: string;
}

export interface Opened {
  plaintext: string;
  /** True when the value was sealed under the previous key and should be sealed again. */
  stale: boolean;
}

export interface Sealer {
  readonly keyId: string;
  /** The id of TOKEN_ENCRYPTION_KEY_PREVIOUS, when one is set. */
  readonly previousKeyId: string | null;
  seal(plaintext: string, associatedData: string): Sealed;
  open(sealed: string, associatedData: string): Opened;
}

export class SealError extends Error {
  readonly code = 'seal_error';
  constructor(message: string) {
    super(message);
    this.name = 'SealError';
  }
}

export function keyIdOf(key: Buffer): string {
  return crypto.createHash('sha256').update('gl-bot-token-key:').update(key).digest('hex').slice(0, 12);
}

export function createSealer(options: { key: Buffer; previousKey?: Buffer | null }): Sealer {
  if (options.key.length !== 32) throw new SealError('the encryption key must be 32 bytes');
  const keys = new Map<string, Buffer>([[keyIdOf(options.key), options.key]]);
  const currentId = keyIdOf(options.key);
  if (options.previousKey) {
    if (options.previousKey.length !== 32) throw new SealError('the previous encryption key must be 32 bytes');
    keys.set(keyIdOf(options.previousKey), options.previousKey);
  }

  return {
    keyId: currentId,
    previousKeyId: options.previousKey ? keyIdOf(options.previousKey) : null,
    seal(plaintext, associatedData) {
      const nonce = crypto.randomBytes(NONCE_BYTES);
      const cipher = crypto.createCipheriv('aes-256-gcm', options.key, nonce, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return {
        keyId: currentId,
        value: [FORMAT, currentId, nonce.toString('base64url'), body.toString('base64url')].join('.'),
      };
    },
    open(sealed, associatedData) {
      const [format, keyId, nonceText, bodyText, ...rest] = sealed.split('.');
      if (format !== FORMAT || !keyId || !nonceText || !bodyText || rest.length > 0) {
        throw new SealError('the sealed value is not in a known format');
      }
      const key = keys.get(keyId);
      if (!key)
        throw new SealError(
          `the value was sealed under key ${keyId}, which is neither the current nor the previous key`,
        );
      const nonce = Buffer.from(nonceText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (nonce.length !== NONCE_BYTES || body.length < TAG_BYTES) throw new SealError('the sealed value is truncated');
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, nonce, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(associatedData, 'utf8'));
        decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
        const plaintext = Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]);
        return { plaintext: plaintext.toString('utf8'), stale: keyId !== currentId };
      } catch {
        throw new SealError('the sealed value does not open with its key (tampered, or bound to another row)');
      }
    },
  };
}
