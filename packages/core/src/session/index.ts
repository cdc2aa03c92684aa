export { authenticateSession, closeSession, openSession, type OpenedSession, SESSION_TTL_DAYS } from "./sessions.js";
