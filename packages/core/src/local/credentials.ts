import type { FileHandle } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * The file system, loaded when a file is touched: a client command given CAIRN_URL and
 * CAIRN_TOKEN never reads this file, and loading fs/promises (with the watchers and
 * readline it brings) is ~3 ms of such a command's start (docs/adr/0067). Taken from Node
 * rather than imported: in the CommonJS quick path an `import()` would start the ES module
 * loader for it (docs/adr/0070).
 */
const fs = async () => process.getBuiltinModule("node:fs/promises");

/** `$CAIRN_HOME/credentials` (SPEC §13): JSON `{url, token}`, mode 0600. */
export interface Credentials {
  url: string;
  token: string;
}

/**
 * Writes the file through a temporary file renamed over it. The temporary file is created
 * exclusively and never through a symlink (`O_CREAT|O_EXCL|O_NOFOLLOW`, SPEC §31): a link
 * planted at its path is removed (the link itself, never what it points at) and the create
 * tried once more; its mode is set on the open file, not by path.
 */
export async function writeCredentials(path: string, credentials: Credentials): Promise<void> {
  const { constants, mkdir, open, rename, unlink } = await fs();
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.tmp`;
  const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);
  let handle: FileHandle;
  try {
    handle = await open(tmp, flags, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    await unlink(tmp); // a stale file or a planted link: unlink removes the name, not its target
    handle = await open(tmp, flags, 0o600);
  }
  try {
    await handle.writeFile(`${JSON.stringify(credentials, null, 2)}\n`);
    await handle.chmod(0o600);
  } finally {
    await handle.close();
  }
  await rename(tmp, path);
}

/** Returns null when the file is absent; throws with a clear message when it is unreadable or malformed. */
export async function readCredentials(path: string): Promise<Credentials | null> {
  const { readFile } = await fs();
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
 * Keeps a copy at the first free `path.previous`, `path.previous.2`, … (a backup is never
 * overwritten: the admin's first token has no other copy). `write` creates the candidate
 * and fails with EEXIST when it is taken.
 */
async function keepAside(path: string, write: (candidate: string) => Promise<void>): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? `${path}.previous` : `${path}.previous.${n}`;
    try {
      await write(candidate);
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
  }
}

/**
 * Writes `credentials` to `path`, keeping what the file held when it was a different
 * token, or when it could not be read as one (malformed, or not readable by us: its bytes
 * may be the only copy of a token): it is kept aside (see keepAside) before anything is
 * replaced. Returns the backup's path, or null when nothing needed keeping.
 */
export async function replaceCredentials(path: string, credentials: Credentials): Promise<string | null> {
  const { link, readFile, writeFile } = await fs();
  let prior: Credentials | null;
  try {
    prior = await readCredentials(path);
  } catch {
    // There, but not a credentials file we can read: keep its bytes as they are ("wx": never over a backup),
    // or, when we cannot even read them, a hard link to the same file (link never replaces either).
    const bytes = await readFile(path).catch(() => null);
    const kept = await keepAside(path, (candidate) => (bytes ? writeFile(candidate, bytes, { mode: 0o600, flag: "wx" }) : link(path, candidate)));
    await writeCredentials(path, credentials);
    return kept;
  }
  const kept =
    prior && prior.token !== credentials.token
      ? await keepAside(path, (candidate) => writeFile(candidate, `${JSON.stringify(prior, null, 2)}\n`, { mode: 0o600, flag: "wx" }))
      : null;
  await writeCredentials(path, credentials);
  return kept;
}
