// The four people every data set has (ARCHITECTURE §7), with their tokens.

import type { UserRecord } from '../model.js';
import type { SeedBuilder } from './builder.js';

export interface SeedPeople {
  root: UserRecord;
  alice: UserRecord;
  bob: UserRecord;
  eve: UserRecord;
}

export function seedUsers(b: SeedBuilder): SeedPeople {
  const days = 24 * 45;
  return {
    root: b.user({ username: 'root', name: 'Administrator', token: 'sim-root-token', admin: true }, days + 24 * 30),
    alice: b.user(
      {
        username: 'alice',
        name: 'Alice Anders',
        token: 'sim-alice-token',
        bio: 'Tech lead of the web shop.',
        location: 'Berlin',
        organization: 'Demo Shop',
      },
      days,
    ),
    bob: b.user(
      {
        username: 'bob',
        name: 'Bob Brown',
        token: 'sim-bob-token',
        bio: 'Frontend and payments.',
        location: 'New York',
        organization: 'Demo Shop',
      },
      days - 24,
    ),
    eve: b.user({ username: 'eve', name: 'Eve Evans', token: 'sim-eve-token', location: 'Tokyo' }, days - 48),
  };
}
