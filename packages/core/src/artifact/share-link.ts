/** Where share links live: `CAIRN_PUBLIC_URL` + this + the token. */
export const SHARE_PATH = "/s/";

/**
 * The share link in a pasted text (`https://host/s/<token>`), or null for anything else
 * (an artifact id, another URL). Clients use it to read a link as its holder would.
 */
export function shareLinkOf(text: string): URL | null {
  if (!/^https?:\/\//i.test(text)) return null;
  try {
    const url = new URL(text);
    return url.pathname.startsWith(SHARE_PATH) && /^[A-Za-z0-9_-]+\/?$/.test(url.pathname.slice(SHARE_PATH.length)) ? url : null;
  } catch {
    return null;
  }
}
