import { describeParity } from "./parity-suite.js";

describeParity(1, 2);
