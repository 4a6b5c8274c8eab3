import { TEAM } from '../src/console/index.js';
import { type Config, createSealer, createTokenStore } from '../src/index.js';

// The people the whole-command benches send commands as, each connected with the simulator's token for them.

/** Slack user id → the simulator's person. */
export const BENCH_PEOPLE = { U0ALICE: 'alice', U0BOB: 'bob', U0ROOT: 'root', U0EVE: 'eve' } as const;

/** Connects every bench person in the bot's store before the bot starts, as `/gl connect` would have left them. */
export async function connectBenchPeople(
  store: Parameters<typeof createTokenStore>[0],
  config: Pick<Config, 'encryption' | 'gitlabUrl'>,
): Promise<void> {
  const tokens = createTokenStore(store, createSealer(config.encryption));
  for (const [userId, person] of Object.entries(BENCH_PEOPLE)) {
    await tokens.save({
      teamId: TEAM.id,
      userId,
      token: `sim-${person}-token`,
      serverUrl: config.gitlabUrl,
      verifiedAt: new Date(),
      username: person,
    });
  }
}
