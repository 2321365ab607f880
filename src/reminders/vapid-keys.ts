import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReminderSettings } from '../core/config.js';

export interface VapidKeys {
  /** base64url of the uncompressed P-256 point (65 bytes): the browser's applicationServerKey. */
  publicKey: string;
  /** base64url of the private scalar (32 bytes). */
  privateKey: string;
}

/**
 * VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY, or a pair generated on first start and kept in DATA_DIR (like the
 * JWT secret), so subscriptions made against the public key keep working across restarts. Instances
 * sharing a database must share the keys (the same DATA_DIR, or the variables).
 */
export async function loadVapidKeys(settings: ReminderSettings, dataDir: string): Promise<VapidKeys> {
  if (settings.vapidPublicKey && settings.vapidPrivateKey) return { publicKey: settings.vapidPublicKey, privateKey: settings.vapidPrivateKey };
  const file = join(dataDir, 'vapid-keys.json');
  const read = async () => JSON.parse(await readFile(file, 'utf8')) as VapidKeys;
  try {
    return await read();
  } catch {
    await mkdir(dataDir, { recursive: true });
    // Loaded only here, on the first start: the channel loads it again with the first push (idle memory).
    const { default: webpush } = await import('web-push');
    const keys = webpush.generateVAPIDKeys();
    // `wx`: two instances starting together keep the first pair written.
    await writeFile(file, JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
    // The other instance's write may still be under way: read until it is whole.
    for (let i = 0; ; i++) {
      try {
        return await read();
      } catch (error) {
        if (i >= 20) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
  }
}
