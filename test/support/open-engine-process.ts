// A process that opens the database of DATABASE_URL or DATABASE_PATH (migrating it, as a bot starting does) and
// says how it went: for tests of replicas starting at the same moment. It says `ready` once its modules are
// loaded and opens when it reads `go`, so that several open at once.

// The store module comes from the test run's build when the test names it (test/support/built-entry.ts), else from
// the sources (through tsx).
const { openEngine } = (await import(
  process.env.OPEN_ENGINE_MODULE ?? '../../src/store/open.js'
)) as typeof import('../../src/store/open.js');

const config = { databaseUrl: process.env.DATABASE_URL ?? null, databasePath: process.env.DATABASE_PATH ?? '' };
process.stdout.write('ready\n');
await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
process.stdin.pause();
try {
  const engine = await openEngine(config);
  await engine.close();
  process.stdout.write('opened\n');
} catch (err) {
  process.stdout.write(`failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
