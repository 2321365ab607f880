/** The argon2 binding, loaded with the first password to hash or check (issue 18: not at start). */
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined;
const loadArgon2 = () => (argon2 ??= import('@node-rs/argon2'));

// argon2id (the library's default algorithm) with OWASP's minimum parameters.
const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

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
