import type { Mail } from './mailer.js';

export function passwordResetMail(to: string, baseUrl: string, token: string): Mail {
  const link = `${baseUrl}/reset-password?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: 'Reset your password',
    text: `Someone asked to reset the password of this account.\n\nReset it here (valid for one hour, once):\n${link}\n\nIf it was not you, ignore this mail.\n`,
  };
}

export function verificationMail(to: string, baseUrl: string, token: string): Mail {
  const link = `${baseUrl}/verify-email?token=${encodeURIComponent(token)}`;
  return {
    to,
    subject: 'Verify your email address',
    text: `Welcome! Confirm your email address here:\n${link}\n`,
  };
}

/** Sent once per lock (src/accounts/sign-in/second-factor-lockout.ts): someone who knows the password is guessing the code. */
export function secondFactorLockedMail(to: string, failures: number, until: Date): Mail {
  return {
    to,
    subject: 'Sign-in to your account was locked',
    text:
      `The password of this account was entered correctly, then ${failures} wrong authenticator, recovery or passkey answers followed.\n\n` +
      `Sign-in with a second factor is locked until ${until.toISOString().replace('T', ' ').slice(0, 16)} UTC.\n\n` +
      'If it was not you, someone knows your password: change it now, and end the sessions you do not recognise.\n',
  };
}

export function exportReadyMail(to: string, url: string): Mail {
  return {
    to,
    subject: 'Your Life Planner export is ready',
    text:
      'The archive of your account (data.json, CSV files, journal entries as Markdown, your files) is ready.\n\n' +
      `Download it while signed in (the link is valid for 24 hours):\n${url}\n\n` +
      'If you did not ask for it, change your password.\n',
  };
}
