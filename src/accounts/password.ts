/** The argon2 binding, loaded with the first password to hash or check (issue 18: not at start). */
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

/** PASSWORD_HASH_COST (src/core/config.ts): `test` is for test runs only and refused in production. */
export type PasswordHashCost = 'standard' | 'test';

// argon2id (the library's default algorithm) either way, so every hash is a standard PHC string that any
// argon2 verifier checks: `standard` is OWASP's minimum (about 0.1 s of CPU per hash or check); `test`
// is argon2id's least (m=8 KiB, t=1), so that a test run's sign-ups do not spend minutes of CPU hashing.
const COSTS: Record<PasswordHashCost, { memoryCost: number; timeCost: number; parallelism: number }> = {
  standard: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  test: { memoryCost: 8, timeCost: 1, parallelism: 1 },
};
let options = COSTS.standard;

/**
 * The cost of the hashes this process makes from now on, set at start from the configuration; returns
 * the cost before (a test that changes it puts it back). A check reads the cost from the stored hash,
 * so hashes made at either cost keep verifying.
 */
export function setPasswordHashCost(cost: PasswordHashCost): PasswordHashCost {
  const before = options === COSTS.test ? 'test' : 'standard';
  if (cost !== before) {
    options = COSTS[cost];
    decoy = undefined; // the decoy costs what a real check costs
  }
  return before;
}

export async function hashPassword(password: string): Promise<string> {
  return (await loadArgon2()).hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  const { verify } = await loadArgon2();
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** Hash compared against when the email is unknown, so both answers take the same time. */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword('decoy-password-for-timing');
  return decoy;
}
