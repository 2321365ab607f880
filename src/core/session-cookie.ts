/** The session cookie's name: set by sign-in (accounts), read by every cookie-authenticated edge. */
export const SESSION_COOKIE = 'lp_session';
