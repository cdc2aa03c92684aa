export { type FollowedLink, followSigninLink, type PeekedLink, peekSigninLink, SIGNIN_LINK_PATH, SIGNIN_LINK_TTL_MINUTES } from "./links.js";
export { authenticateSession, closeSession, type OpenedSession, openSession, SESSION_TTL_DAYS } from "./sessions.js";
