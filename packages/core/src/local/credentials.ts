import { chmod, mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

/** `$CAIRN_HOME/credentials` (SPEC §13): JSON `{url, token}`, mode 0600. */
export interface Credentials {
  url: string;
  token: string;
}

export async function writeCredentials(path: string, credentials: Credentials): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, path);
}

/** Returns null when the file is absent; throws with a clear message when it is unreadable or malformed. */
export async function readCredentials(path: string): Promise<Credentials | null> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new Error(`cannot read ${path}: ${(err as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text) as Partial<Credentials>;
    if (typeof parsed.token === "string" && typeof parsed.url === "string") return { url: parsed.url, token: parsed.token };
  } catch {
    // fall through to the shared message
  }
  throw new Error(`${path} is not a Cairn credentials file (expected JSON {"url", "token"}).`);
}

/**
 * Writes `credentials` to `path`, keeping a different token the file held: it is copied,
 * before anything is replaced, to the first free `path.previous`, `path.previous.2`, … (a
 * backup is never overwritten: the admin's first token has no other copy). Returns the
 * backup's path, or null when nothing needed keeping.
 */
export async function replaceCredentials(path: string, credentials: Credentials): Promise<string | null> {
  const prior = await readCredentials(path).catch(() => null);
  let kept: string | null = null;
  if (prior && prior.token !== credentials.token) {
    for (let n = 1; kept === null; n++) {
      const candidate = n === 1 ? `${path}.previous` : `${path}.previous.${n}`;
      try {
        // "wx": fails when the file exists, so no backup is ever replaced.
        await writeFile(candidate, `${JSON.stringify(prior, null, 2)}\n`, { mode: 0o600, flag: "wx" });
        kept = candidate;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
    }
  }
  await writeCredentials(path, credentials);
  return kept;
}
