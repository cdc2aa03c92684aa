export { type BackupKind, backupKindOf, dumpPostgres, restoreEmbedded, restorePostgres } from "./restore.js";
