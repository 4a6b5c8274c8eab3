import pino from 'pino';
import { REDACTED, redact } from './redact.js';

// The bot's log: pino's JSON lines (a level by name, an ISO time, the fields, the message), child
// loggers with bindings (a component, a request's id). Secrets are kept out twice: fields known to hold one are
// censored by pino's `redact` paths, and every finished line passes through redact() (registered secrets, token
// shapes) just before it is written, so no caller can leak a secret by accident.
//
// The bot logs `logger.info('message', { fields })`; pino takes the fields first, so the arguments are turned
// around by pino's logMethod hook (its documented way of doing so), and an Error among the fields is written
// with its name, message, code and stack.

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export type LogFields = Record<string, unknown>;

/**
 * The bot's view of a pino logger: a message, then its fields (pino's logMethod hook below turns them around for
 * pino). A pino logger made by createLogger is one, children included.
 */
export interface Logger {
  /** The level written from (`debug`, `info`, `warn`, `error`, or `silent`). */
  readonly level: string;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(bindings: LogFields): Logger;
  isLevelEnabled(level: LogLevel): boolean;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where finished lines go, one line per call without its newline (default: stderr). Tests pass a collector. */
  sink?: (line: string) => void;
  bindings?: LogFields;
}

/** Fields whose values are secrets wherever they appear, one level deep too. */
const SECRET_FIELDS = [
  'token',
  'botToken',
  'appToken',
  'accessToken',
  'signingSecret',
  'secret',
  'password',
  'authorization',
  'encryptionKey',
  'databaseUrl',
  'headers.authorization',
  'headers["private-token"]',
  'headers.cookie',
];
const REDACT_PATHS = [...SECRET_FIELDS, ...SECRET_FIELDS.map((f) => `*.${f}`)];

function serialiseError(value: Error): Record<string, unknown> {
  const out: Record<string, unknown> = { name: value.name, message: value.message };
  const code = (value as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (value.stack) out.stack = value.stack;
  return out;
}

function withErrorsSerialised(fields: LogFields): LogFields {
  let out: LogFields | null = null;
  for (const key in fields) {
    const value = fields[key];
    // `err` is pino's own: its error serializer writes it.
    if (value instanceof Error && key !== 'err') {
      out ??= { ...fields };
      out[key] = serialiseError(value);
    }
  }
  return out ?? fields;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const sink = options.sink;
  const destination = sink
    ? { write: (line: string) => sink(line.endsWith('\n') ? line.slice(0, -1) : line) }
    : pino.destination({ dest: 2, sync: true });
  const logger = pino(
    {
      level: options.level ?? 'info',
      // No pid or hostname on every line: where a line came from is the log shipper's to say (container, pod).
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
      hooks: {
        logMethod(args, method) {
          const [first, second] = args as unknown[];
          if (typeof first === 'string' && second !== null && typeof second === 'object') {
            return method.apply(this, [withErrorsSerialised(second as LogFields), first]);
          }
          return method.apply(this, args);
        },
        streamWrite: (line) => redact(line),
      },
    },
    destination,
  );
  return asLogger(options.bindings ? logger.child(options.bindings) : logger);
}

/** pino's types read a message's `%s` placeholders for its arguments; the logMethod hook takes the fields instead. */
const asLogger = (logger: pino.Logger): Logger => logger as unknown as Logger;

/** A logger that drops everything (for tests and tools that do not care). */
export const silentLogger: Logger = asLogger(pino({ level: 'silent' }));
