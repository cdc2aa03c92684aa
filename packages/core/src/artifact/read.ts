import type { CairnConfig, ServiceContext } from "../context.js";
import { CairnError, notFound, validationFailed } from "../errors.js";
import { authorizeRead, type Viewer } from "../identity/authorize.js";
import type { Store } from "../store/port.js";
import { parseWith } from "../validation.js";
import { findArtifact, isExpired, toArtifact, toLinkHolderArtifact } from "./internal.js";
import { readLinkHolderRow } from "./link-holder-reads.js";
import { type Artifact, ShareToken } from "./schemas.js";

export const gone = () => new CairnError("gone", "This artifact has expired. Retain artifacts you want to keep.");

/** Reads by id. Someone who may not read it gets the same 404 as for a missing id: no existence leak. */
export async function readArtifact(ctx: ServiceContext, input: { id: string }): Promise<Artifact> {
  const viewer: Viewer = { kind: "principal", principal: ctx.principal };
  const row = await findArtifact(ctx.store, input.id);
  if (!row || !authorizeRead(viewer, row)) throw notFound();
  if (isExpired(row, ctx.now())) throw gone();
  return toArtifact(ctx.store, ctx.config, viewer, row);
}

/** Reads through a share link: the token is the whole capability. */
export async function readArtifactByShareToken(store: Store, config: CairnConfig, shareToken: string, now: Date = new Date()): Promise<Artifact> {
  const parsed = parseWith(ShareToken, shareToken);
  if (!parsed.ok) throw validationFailed(parsed.issues.map((i) => ({ ...i, field: "token" })));
  const full = await readLinkHolderRow(store, shareToken);
  const viewer: Viewer = { kind: "link", shareToken };
  if (!full || !authorizeRead(viewer, full)) throw notFound();
  if (isExpired(full, now)) throw gone();
  return toLinkHolderArtifact(config, full);
}
