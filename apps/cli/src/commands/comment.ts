import { printComment } from "./comment-lines.js";
import { operationCommand } from "./define.js";

/** `cairn comment ID TEXT` (SPEC §34): comments on a receipt you may read. */
export const commentCommand = operationCommand("comment_create", {
  words: ["comment"],
  args: [
    { field: "id", name: "ID" },
    { field: "body", name: "TEXT", variadic: true },
  ],
  summary: "Comment on a receipt you may read (markdown, at most 4,000 characters)",
  examples: ['cairn comment art_06h2k3m4n5p6q7r8s9t0v1w2x3 "Checked the numbers; the limit holds"'],
  human: (c, printer) => printer.out(`Commented ${c.id} on ${c.artifact_id}`),
});

/** `cairn comments ID`: a receipt's comments, oldest first (`cairn read` shows them too). */
export const commentsCommand = operationCommand("comment_list", {
  words: ["comments"],
  args: [{ field: "id", name: "ID" }],
  options: [{ field: "limit" }, { field: "cursor" }],
  summary: "List a receipt's comments, oldest first",
  examples: ["cairn comments art_06h2k3m4n5p6q7r8s9t0v1w2x3"],
  human: (page, printer) => {
    if (page.items.length === 0) printer.out("No comments.");
    for (const c of page.items) printComment(c, printer);
    if (page.next_cursor) printer.out(`More: cairn comments ${page.items[0]?.artifact_id ?? "ID"} --cursor ${page.next_cursor}`);
  },
});

/** `cairn comment-delete ID CID`: the author or the owner deletes a comment; a tombstone stays. */
export const commentDeleteCommand = operationCommand("comment_delete", {
  words: ["comment-delete"],
  args: [
    { field: "id", name: "ID" },
    { field: "cid", name: "CID" },
  ],
  summary: "Delete a comment (its author or the receipt's owner); a tombstone says who and when",
  examples: ["cairn comment-delete art_06h2k3m4n5p6q7r8s9t0v1w2x3 cmt_06h2k3m4n5p6q7r8s9t0v1w2x4"],
  human: (c, printer) => printer.out(`Deleted ${c.id}${c.deleted ? ` (by ${c.deleted.by} at ${c.deleted.at})` : ""}`),
});
