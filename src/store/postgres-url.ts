// What the bot says about a DATABASE_URL, apart from the PostgreSQL engine: main.ts needs these in every mode, and
// a bot on SQLite (the embedded default) never loads the PostgreSQL client (src/store/open.ts imports it on demand).

/** DATABASE_URL names a server the bot cannot use; the message names the variable and why, never the password. */
export class DatabaseUrlError extends Error {
  readonly code = 'database_url';
  constructor(url: string, reason: string) {
    super(`DATABASE_URL (${describeUrl(url)}) cannot be used: ${reason}.`);
    this.name = 'DatabaseUrlError';
  }
}

/** The URL without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.password = '';
    return u.toString();
  } catch {
    return 'not a valid URL';
  }
}

/** The password in a DATABASE_URL (to keep out of every log line), or null. */
export function passwordOf(url: string): string | null {
  try {
    const p = new URL(url).password;
    return p ? decodeURIComponent(p) : null;
  } catch {
    return null;
  }
}
