export { DOCS_CSP, renderDocsPage } from "./page.js";
