export * from "./fixtures.js";
export * from "./receipts.js";
export * from "./stores.js";
export * from "./teams.js";
export * from "./link-scenario.js";
export * from "./link-tables.js";
export * from "./process.js";
export * from "./string-fields.js";
