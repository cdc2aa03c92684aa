import { defineApiTag } from "../operations/api-tags.js";
import { defineOperation } from "../operations/define.js";
import { dismissDrops, listDrops } from "./list.js";
import { DropList, DropsDismissed, DropsDismissInput, DropsListInput } from "./schemas.js";

/** This area's group in the API documentation. */
export const DROP_TAG = defineApiTag("Drops", "What the gates refused and why (drop receipts), and the views that sum up your week: `status` and `doctor`.");

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
  drops_dismiss: defineOperation({
    notOn: { mcp: "only a person decides that a refusal was dealt with" },
    title: "Dismiss drop receipts",
    description:
      "Say you dealt with the drops made before a time (default: now), for you and your teams or one owner: they stop counting toward doctor's Drops warning and stay listed, marked `dismissed`. Human tokens only. A drop the same token fixed since (an accepted receipt for the same owner) is `resolved` without this.",
    input: DropsDismissInput,
    output: DropsDismissed,
    mutates: true,
    idempotent: true,
    permission: "drops:dismiss",
    errors: ["forbidden"],
    run: dismissDrops,
  }),
} as const;
