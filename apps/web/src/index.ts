export { createWebApp } from "./app.js";
