export { connectorOAuth, MCP_PATH, type ConnectorOAuth } from './oauth.http.js';
export { OAuthClient } from './oauth-client.entity.js';
export { OAuthConnection } from './oauth-connection.entity.js';
export { OAuthCode, OAuthToken } from './oauth-grant.entity.js';
