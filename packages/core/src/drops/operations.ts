import { defineOperation } from "../operations/define.js";
import { listDrops } from "./list.js";
import { DropList, DropsListInput } from "./schemas.js";

/** What the gates refused and why. */
export const DROP_OPERATIONS = {
  drops_list: defineOperation({
    title: "List refused submissions (drop receipts)",
    description:
      "List drop receipts: receipt submissions the gates refused (for you and your teams), newest first, over a trailing window (default 7 days). Each says the category, whether you can fix it, the cause, the next action and the failing fields — never the content.",
    input: DropsListInput,
    output: DropList,
    mutates: false,
    errors: ["forbidden"],
    run: listDrops,
  }),
} as const;
