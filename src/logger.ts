import { redact } from './redact.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];

export type LogFields = Record<string, unknown>;

export interface Logger {
  readonly level: LogLevel;
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(bindings: LogFields): Logger;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** Where finished lines go (default: stderr). Tests pass a collector. */
  sink?: (line: string) => void;
  bindings?: LogFields;
}

function serialise(value: unknown): unknown {
  if (value instanceof Error) {
    const out: Record<string, unknown> = { name: value.name, message: value.message };
    const code = (value as { code?: unknown }).code;
    if (code !== undefined) out.code = code;
    if (value.stack) out.stack = value.stack;
    return out;
  }
  return value;
}

/** One JSON line per entry; every line passes through redact() last, so no caller can leak a secret by accident. */
export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? 'info';
  const sink = options.sink ?? ((line: string) => process.stderr.write(`${line}\n`));
  const bindings = options.bindings ?? {};
  const threshold = LOG_LEVELS.indexOf(level);

  const write = (lvl: LogLevel, message: string, fields?: LogFields) => {
    if (LOG_LEVELS.indexOf(lvl) < threshold) return;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level: lvl, msg: message, ...bindings };
    for (const [k, v] of Object.entries(fields ?? {})) entry[k] = serialise(v);
    let line: string;
    try {
      line = JSON.stringify(entry);
    } catch {
      line = JSON.stringify({ time: entry.time, level: lvl, msg: message, note: 'fields not serialisable' });
    }
    sink(redact(line));
  };

  return {
    level,
    debug: (m, f) => write('debug', m, f),
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    child: (more) => createLogger({ level, sink, bindings: { ...bindings, ...more } }),
  };
}

/** A logger that drops everything (for tests and tools that do not care). */
export const silentLogger: Logger = createLogger({ level: 'error', sink: () => {} });
