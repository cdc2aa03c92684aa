export { type Credentials, readCredentials, replaceCredentials, writeCredentials } from "./credentials.js";
export { DEFAULT_HOST, DEFAULT_PORT, resolveSettings, type Settings } from "./settings.js";
