import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

const onPath = (name: string, env: Env): boolean =>
  (env.PATH ?? "").split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/**
 * How to open a URL in a browser here, or null when there is none to open: `$BROWSER`
 * when set (as git and Python's webbrowser read it), `open` on macOS, `start` on Windows,
 * and on other systems `xdg-open` only when a display is there (an SSH session or a
 * container has none, and xdg-open would fall back to a text browser in the terminal).
 */
export function browserCommand(env: Env, platform: NodeJS.Platform = process.platform): { command: string; args: string[] } | null {
  const chosen = env.BROWSER?.split(":")[0]?.trim();
  if (chosen) return { command: chosen, args: [] };
  if (platform === "darwin") return { command: "open", args: [] };
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", '""'] };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return onPath("xdg-open", env) ? { command: "xdg-open", args: [] } : null;
}

/** Opens `url` in a browser when there is one; never fails (the caller has printed the link). Returns whether it tried. */
export function openInBrowser(url: string, env: Env): boolean {
  // The link comes from the server: only a plain http(s) URL is handed to a shell-like opener (`cmd /c start`).
  if (!/^https?:\/\/[A-Za-z0-9.:[\]-]+\/[A-Za-z0-9/_\-.~%]*$/.test(url)) return false;
  const browser = browserCommand(env);
  if (!browser) return false;
  try {
    const child = spawn(browser.command, [...browser.args, url], { detached: true, stdio: "ignore", env: { ...env } });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
