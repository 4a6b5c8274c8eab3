import fs from 'node:fs';
import { redact, registerSecret } from './redact.js';
import { copyDatabase, TargetNotEmptyError } from './store/copy.js';
import { DatabaseOpenError, openDatabase, SchemaTooNewError } from './store/database.js';
import { DatabaseUrlError, openPostgres, passwordOf } from './store/postgres-engine.js';

// `npm run db:copy -- --from <sqlite file> --to <postgres url> [--force]`: moves an install from its SQLite file
// to PostgreSQL (README, "Growing past one machine"). Stop the bot first; start it with DATABASE_URL afterwards.

const USAGE = 'usage: npm run db:copy -- --from <sqlite file> --to <postgres://user:password@host:5432/db> [--force]';

function parseArgs(argv: string[]): { from: string; to: string; force: boolean } | string {
  let from: string | undefined;
  let to: string | undefined;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--force') force = true;
    else if (arg === '--from') from = argv[++i];
    else if (arg === '--to') to = argv[++i];
    else return `unknown argument ${JSON.stringify(arg)}`;
  }
  if (!from) return 'say which SQLite file to copy from (--from)';
  if (!to) return 'say which PostgreSQL database to copy to (--to)';
  if (!/^postgres(ql)?:\/\//.test(to)) return '--to must be a postgres:// URL';
  if (!fs.existsSync(from)) return `${from} does not exist`;
  return { from, to, force };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  if (typeof args === 'string') {
    process.stderr.write(`db:copy: ${args}\n${USAGE}\n`);
    return 2;
  }
  const password = passwordOf(args.to);
  if (password) registerSecret(password);
  const from = openDatabase(args.from);
  try {
    const to = await openPostgres(args.to);
    try {
      const copied = await copyDatabase(from, to, { force: args.force });
      const total = copied.reduce((sum, t) => sum + t.rows, 0);
      process.stdout.write(`copied ${total} rows from ${args.from}:\n`);
      for (const t of copied) process.stdout.write(`  ${t.table}: ${t.rows}\n`);
      return 0;
    } finally {
      await to.close();
    }
  } finally {
    from.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const known =
      err instanceof TargetNotEmptyError ||
      err instanceof DatabaseUrlError ||
      err instanceof DatabaseOpenError ||
      err instanceof SchemaTooNewError;
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`db:copy: ${redact(known ? message : `failed: ${message}`)}\n`);
    process.exit(1);
  },
);
