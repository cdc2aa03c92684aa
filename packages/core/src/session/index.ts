export { authenticateSession, closeSession, openSession, type OpenedSession, SESSION_TTL_DAYS } from "./sessions.js";
export { followSigninLink, type FollowedLink, SIGNIN_LINK_PATH, SIGNIN_LINK_TTL_MINUTES } from "./links.js";
