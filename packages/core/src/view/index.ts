export * from "./card.js";
export * from "./summary.js";
export * from "./timeline.js";
export * from "./filters.js";
export * from "./validator.js";
export * from "./state.js";
export * from "./receipt-app.js";
export * from "./a2ui.js";
