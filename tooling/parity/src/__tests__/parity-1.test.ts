import { describeParity } from "./parity-suite.js";

describeParity(0, 2);
