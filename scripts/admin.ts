/**
 * Operator commands against the service's database (DATABASE_URL, or the embedded PostgreSQL under
 * DATA_DIR, reusing a running server's instance when there is one).
 *
 *   npm run admin -- create-user <email> <password> [--plan free|pro]
 *   npm run admin -- set-plan <email> <free|pro> [--expires <ISO 8601>]
 */
import 'reflect-metadata';
import { ConfigError, loadConfig, type Config } from '../src/core/config.js';
import { AppError } from '../src/core/errors.js';
import { resolveDatabase } from '../src/core/database/database-url.js';
import { connectAppOrm } from '../src/app/database.js';
import { migrate } from '../src/migrations/migrator.js';
import { AccountAdminService, parseExpiry, parsePlan } from '../src/accounts/account-admin.service.js';
import { setPasswordHashCost } from '../src/accounts/password.js';

const USAGE = [
  'usage: npm run admin -- create-user <email> <password> [--plan free|pro]',
  '       npm run admin -- set-plan <email> <free|pro> [--expires <ISO 8601>]',
].join('\n');

class UsageError extends Error {}

interface Parsed {
  positional: string[];
  options: Map<string, string>;
}

function parseArgs(args: string[], allowed: string[]): Parsed {
  const positional: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split(/=(.*)/s, 2);
      if (!allowed.includes(name)) throw new UsageError(`unknown option --${name}`);
      const value = inline ?? args[++i];
      if (value === undefined || value === '') throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
    } else {
      positional.push(arg);
    }
  }
  return { positional, options };
}

type Command = (admin: AccountAdminService, config: Config) => Promise<string>;

/** Checks the arguments before touching the database, so bad usage fails fast. */
function command(argv: string[]): Command {
  const [name, ...rest] = argv;
  switch (name) {
    case 'create-user': {
      const { positional, options } = parseArgs(rest, ['plan']);
      if (positional.length !== 2) throw new UsageError('create-user needs <email> <password>');
      const [email, password] = positional;
      const planArg = options.get('plan');
      const plan = planArg === undefined ? undefined : parsePlan(planArg);
      return async (admin, config) => {
        const user = await admin.createUser(email, password, { plan: plan ?? config.defaultPlan });
        return `created user ${user.email} (id ${user.id}, plan ${user.plan}, email verified)`;
      };
    }
    case 'set-plan': {
      const { positional, options } = parseArgs(rest, ['expires']);
      if (positional.length !== 2) throw new UsageError('set-plan needs <email> <free|pro>');
      const [email, planArg] = positional;
      const plan = parsePlan(planArg);
      const expiresArg = options.get('expires');
      const expiresAt = expiresArg === undefined ? null : parseExpiry(expiresArg);
      return async (admin) => {
        const user = await admin.setPlan(email, plan, expiresAt);
        const until = user.planExpiresAt
          ? ` ${user.planExpiresAt.getTime() <= Date.now() ? '(lapsed since' : '(until'} ${user.planExpiresAt.toISOString()})`
          : user.plan === 'free'
            ? ''
            : ' (no end)';
        return `${user.email} is on the ${user.plan} plan${until}`;
      };
    }
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      throw new UsageError('');
    default:
      throw new UsageError(`unknown command "${name}"`);
  }
}

async function main(argv: string[]): Promise<number> {
  let run: Command;
  let config: Config;
  try {
    run = command(argv);
    config = loadConfig();
    setPasswordHashCost(config.passwordHashCost);
  } catch (error) {
    if (error instanceof UsageError) {
      if (!error.message && argv.length) {
        console.log(USAGE); // asked for help
        return 0;
      }
      console.error(error.message ? `error: ${error.message}\n${USAGE}` : USAGE);
      return 2;
    }
    if (error instanceof AppError || error instanceof ConfigError) {
      console.error(`error: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const database = await resolveDatabase(config.databaseUrl, config.dataDir);
  try {
    const orm = await connectAppOrm(database.url);
    try {
      await migrate(orm);
      console.log(await run(new AccountAdminService(orm.em.fork()), config));
      return 0;
    } catch (error) {
      if (error instanceof AppError) {
        const detail =
          error.code === 'NOT_FOUND'
            ? `no user with email ${String(error.details?.email)}`
            : error.code === 'EMAIL_EXISTS'
              ? `a user with email ${argv[1]} already exists`
              : error.message;
        console.error(`error: ${detail}`);
        return 1;
      }
      throw error;
    } finally {
      await orm.close();
    }
  } finally {
    await database.release();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
