export { authenticateSession, closeSession, openSession, type OpenedSession, SESSION_TTL_DAYS } from "./sessions.js";
export { followSigninLink, type FollowedLink, type PeekedLink, peekSigninLink, SIGNIN_LINK_PATH, SIGNIN_LINK_TTL_MINUTES } from "./links.js";
