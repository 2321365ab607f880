import { afterEach, describe, expect, it } from 'vitest';
import { decoyHash, hashPassword, setPasswordHashCost, verifyPassword, type PasswordHashCost } from './password.js';

describe('password hashes (argon2id)', () => {
  let restore: PasswordHashCost | undefined;
  afterEach(() => {
    // The test project shares its modules between files: the cost goes back to what it was.
    if (restore) setPasswordHashCost(restore);
    restore = undefined;
  });

  it("are made at OWASP's minimum by default (PASSWORD_HASH_COST=standard)", async () => {
    restore = setPasswordHashCost('standard');
    const hash = await hashPassword('correct horse battery');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hash, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(hash, 'wrong horse battery')).toBe(false);
    expect(await decoyHash()).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('at the test cost are still standard argon2id hashes, and hashes of either cost verify under the other', async () => {
    restore = setPasswordHashCost('standard');
    const standard = await hashPassword('made at the standard cost');
    setPasswordHashCost('test');
    const cheap = await hashPassword('made at the test cost');
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    expect(await decoyHash()).toMatch(/^\$argon2id\$v=19\$m=8,t=1,p=1\$/);
    expect(await verifyPassword(cheap, 'made at the test cost')).toBe(true);
    expect(await verifyPassword(cheap, 'made at the standard cost')).toBe(false);
    expect(await verifyPassword(standard, 'made at the standard cost')).toBe(true);
    setPasswordHashCost('standard');
    expect(await verifyPassword(cheap, 'made at the test cost')).toBe(true);
  });
});
