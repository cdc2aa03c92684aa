/**
 * Human output shows every control character, bidi override and line separator as a
 * visible escape (core's `visibleText`, which notifications use too); newlines and tabs
 * stay. `--json` output is never passed through here.
 */
export { visibleText as terminalSafe } from "./light.js";
