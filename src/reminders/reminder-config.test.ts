import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../core/config.js';

describe('reminder settings', () => {
  it('defaults: a scan every second, keys generated into DATA_DIR, a subject from BASE_URL, a TTL of an hour', () => {
    expect(loadConfig({}).reminders).toEqual({
      scanIntervalMs: 1000,
      vapidPublicKey: undefined,
      vapidPrivateKey: undefined,
      vapidSubject: 'mailto:reminders@localhost',
      webPushTtlSeconds: 3600,
      appUrl: undefined,
      sendsPerMinute: 20,
      sendTimeoutMs: 10_000,
      backoffUnitMs: 60_000,
      leaseMs: 20_000,
      allowPrivateUrls: false,
    });
    expect(loadConfig({ BASE_URL: 'https://plan.example.com/app' }).reminders.vapidSubject).toBe('https://plan.example.com');
  });

  it('reads the VAPID pair, subject and TTL, and names a bad one', () => {
    const keys = webpush.generateVAPIDKeys();
    const config = loadConfig({
      VAPID_PUBLIC_KEY: keys.publicKey,
      VAPID_PRIVATE_KEY: keys.privateKey,
      VAPID_SUBJECT: 'mailto:ops@example.com',
      WEB_PUSH_TTL_SECONDS: '600',
      REMINDER_SCAN_INTERVAL_MS: '250',
      APP_URL: 'https://app.example.com/planner/',
      REMINDER_SENDS_PER_MINUTE: '5',
      REMINDER_SEND_TIMEOUT_MS: '3000',
      REMINDER_BACKOFF_UNIT_MS: '500',
      REMINDER_LEASE_MS: '8000',
      REMINDER_ALLOW_PRIVATE_URLS: 'true',
    }).reminders;
    expect(config).toEqual({
      scanIntervalMs: 250,
      vapidPublicKey: keys.publicKey,
      vapidPrivateKey: keys.privateKey,
      vapidSubject: 'mailto:ops@example.com',
      webPushTtlSeconds: 600,
      appUrl: 'https://app.example.com/planner',
      sendsPerMinute: 5,
      sendTimeoutMs: 3000,
      backoffUnitMs: 500,
      leaseMs: 8000,
      allowPrivateUrls: true,
    });
    const refused = (env: Record<string, string>, setting: string) => {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(`Invalid setting ${setting}`);
    };
    refused({ VAPID_PUBLIC_KEY: keys.publicKey }, 'VAPID_PRIVATE_KEY');
    refused({ VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_PUBLIC_KEY');
    refused({ VAPID_PUBLIC_KEY: keys.privateKey, VAPID_PRIVATE_KEY: keys.privateKey }, 'VAPID_PUBLIC_KEY');
    refused({ VAPID_SUBJECT: 'http://example.com' }, 'VAPID_SUBJECT');
    refused({ REMINDER_SCAN_INTERVAL_MS: '5' }, 'REMINDER_SCAN_INTERVAL_MS');
    refused({ WEB_PUSH_TTL_SECONDS: 'soon' }, 'WEB_PUSH_TTL_SECONDS');
    refused({ APP_URL: 'app.example.com' }, 'APP_URL');
    refused({ APP_URL: 'ftp://app.example.com' }, 'APP_URL');
    refused({ REMINDER_SENDS_PER_MINUTE: '0' }, 'REMINDER_SENDS_PER_MINUTE');
    refused({ REMINDER_SEND_TIMEOUT_MS: '0' }, 'REMINDER_SEND_TIMEOUT_MS');
    refused({ REMINDER_BACKOFF_UNIT_MS: 'soon' }, 'REMINDER_BACKOFF_UNIT_MS');
    refused({ REMINDER_LEASE_MS: 'long' }, 'REMINDER_LEASE_MS');
    refused({ REMINDER_ALLOW_PRIVATE_URLS: 'maybe' }, 'REMINDER_ALLOW_PRIVATE_URLS');
  });

  it("sends take the webhooks' timeout, backoff and SSRF setting unless their own are set, and never change the webhooks'", () => {
    const webhooksOnly = loadConfig({ WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_BACKOFF_UNIT_MS: '200', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
    expect(webhooksOnly.reminders).toMatchObject({ sendTimeoutMs: 2000, backoffUnitMs: 200, allowPrivateUrls: true });
    const both = loadConfig({
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_BACKOFF_UNIT_MS: '200',
      WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      REMINDER_SEND_TIMEOUT_MS: '7000',
      REMINDER_BACKOFF_UNIT_MS: '900',
      REMINDER_ALLOW_PRIVATE_URLS: 'false',
    });
    expect(both.reminders).toMatchObject({ sendTimeoutMs: 7000, backoffUnitMs: 900, allowPrivateUrls: false });
    expect(both.webhooks).toEqual({ timeoutMs: 2000, backoffUnitMs: 200, allowPrivateUrls: true });
  });

  it('a send is leased for its timeout + 10 s unless REMINDER_LEASE_MS says otherwise, never for too short to send in', () => {
    expect(loadConfig({ REMINDER_SEND_TIMEOUT_MS: '2000' }).reminders.leaseMs).toBe(12_000);
    expect(loadConfig({ REMINDER_SEND_TIMEOUT_MS: '2000', REMINDER_LEASE_MS: '4001' }).reminders.leaseMs).toBe(4001);
    expect(() => loadConfig({ REMINDER_SEND_TIMEOUT_MS: '2000', REMINDER_LEASE_MS: '4000' })).toThrow(/REMINDER_LEASE_MS.*above REMINDER_SEND_TIMEOUT_MS \+ 2000 \(4000\)/);
  });
});
