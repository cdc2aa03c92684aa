import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { artifactInsertArgument, newArtifactRow } from "../artifact/internal.js";
import { DRIVERS, fullReceipt, type TestUser } from "../testing/index.js";
import { useTestWorld } from "./helpers.js";

/** A word no other test writes, in lowercase letters only so the stemmer leaves it whole. */
const uniqueWord = () =>
  `zq${randomBytes(6)
    .toString("hex")
    .replace(/\d/g, (d) => "abcdefghij"[Number(d)] ?? "x")}`;

describe.each(DRIVERS)("what q finds (ADR 0074) on %s", (driver) => {
  const fx = useTestWorld(driver);

  async function found(user: TestUser, q: string): Promise<string[]> {
    const page = await fx.world.cairn.invoke("artifact_search", user.ctx(), { q, limit: 50 });
    return page.items.map((i) => i.id);
  }

  it("finds a receipt by a word of each answer, its title and its details, and not by the template's headings", async () => {
    const sam = await fx.world.user("sam");
    const w = Object.fromEntries(
      ["title", "changed", "affected", "before", "after", "label", "host", "note", "summary", "action", "item", "owner", "learned", "details"].map((k) => [
        k,
        uniqueWord(),
      ]),
    );
    const receipt = await fx.world.cairn.invoke(
      "receipt_create",
      sam.ctx(),
      fullReceipt({
        title: `Export ${w.title}`,
        changed: `Nightly export ${w.changed} retries uploads`,
        affected: `Finance ${w.affected}`,
        before: `Uploads ${w.before} failed`,
        after: `Uploads ${w.after} succeed`,
        evidence: [{ label: `Run ${w.label}`, url: `https://${w.host}.example.com/runs/1` }],
        evidence_note: `Exercised ${w.note} by hand`,
        outcome: { status: "measured", summary: `Failures ${w.summary} fell` },
        human_action: `Approve ${w.action} budget`,
        remaining: [{ item: `Alert ${w.item} on failure`, owner: w.owner }],
        learned: `Target ${w.learned} drops connections`,
        details: `## Notes\n\nBackoff ${w.details} starts at 30 s.`,
      }),
    );
    // A link's host is one word to the parser: it is found whole.
    const queries = { ...w, host: `${w.host}.example.com` };
    for (const [field, q] of Object.entries(queries)) expect({ field, found: await found(sam, q) }).toEqual({ field, found: [receipt.id] });

    // Every rendered body has these headings and labels; a word of them, beside one of this receipt's, no longer matches it.
    for (const templateWord of ["affected", "evidence", "outcome", "status", "measured", "remains", "knows", "details"]) {
      expect({ templateWord, found: await found(sam, `${w.learned} ${templateWord}`) }).toEqual({ templateWord, found: [] });
    }
  });

  it("finds a plain artifact by its title and body, and a redacted secret by nothing", async () => {
    const sam = await fx.world.user("sam");
    const [title, body, near] = [uniqueWord(), uniqueWord(), uniqueWord()];
    const secret = ["ghp_", "A1b2C3d4E5f6G7h8I9j0", "K1l2M3n4O5p6Q7r8"].join("");
    const plain = await fx.world.cairn.invoke("artifact_create", sam.ctx(), { title: `Note ${title}`, body: `A note about ${body}` });
    expect(await found(sam, title)).toEqual([plain.id]);
    expect(await found(sam, body)).toEqual([plain.id]);

    const redacted = await fx.world.cairn.invoke("receipt_create", sam.ctx(), fullReceipt({ details: `Token ${secret} beside ${near}` }));
    expect(redacted.redactions.length).toBeGreaterThan(0);
    expect(await found(sam, near)).toEqual([redacted.id]);
    expect(await found(sam, secret)).toEqual([]);
  });

  it("a server of the previous release, which sends no search text, still writes a searchable artifact", async () => {
    const sam = await fx.world.user("sam");
    const [title, body] = [uniqueWord(), uniqueWord()];
    const now = new Date();
    const row = newArtifactRow(now, new Date(now.getTime() + 86_400_000), {
      owner: `user:${sam.name}`,
      title: `Old ${title}`,
      share_type: "markdown",
      body: `Written by an older server: ${body}`,
      checksum: "sha256:old",
      tags: [],
      metadata: null,
      provenance: { actor: { id: sam.principal.token.id, name: "old", kind: "human" }, on_behalf_of: sam.name, model: null, surface: "rest" },
      follows: null,
    });
    const { search_text: _left, ...previousRelease } = artifactInsertArgument(row, "what this release would send");
    await fx.store.query("select cairn_insert_artifact($1::jsonb)", [JSON.stringify(previousRelease)]);
    expect(await found(sam, title)).toEqual([row.id]);
    expect(await found(sam, body)).toEqual([row.id]);
  });
});
