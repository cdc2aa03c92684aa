export * from "./fixtures.js";
export * from "./receipts.js";
export * from "./stores.js";
