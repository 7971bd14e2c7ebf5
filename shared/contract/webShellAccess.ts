/** The web shell's access protocol, free of schema code so the renderer can use it without bundling the validator. */
/**
 * How the web shell's page proves it holds the token. A page cannot set headers on a WebSocket, so it offers two
 * subprotocols: `WIRE_PROTOCOL`, which the server selects, and `TOKEN_PROTOCOL_PREFIX` + the token, which the server
 * checks at the handshake. No cookie ever carries the token: cookies are shared by every port of a host.
 */
export const WIRE_PROTOCOL = 'ccmem.v1';
export const TOKEN_PROTOCOL_PREFIX = 'ccmem.token.';

/** Answers 204 to `Authorization: Bearer <token>` and 401 otherwise, so the page can tell a wrong token from a lost server. */
export const ACCESS_CHECK_PATH = '/api/access';

/** What a token must look like to travel as a subprotocol (the server's tokens are base64url). */
export const TOKEN_PATTERN = /^[A-Za-z0-9_-]{1,256}$/;
