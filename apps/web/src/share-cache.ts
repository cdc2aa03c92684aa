import { LruMap } from "@cairn/core";

/** Pages kept at most; with the size bound below, at most about 64 MB of text. */
const CAPACITY = 256;
/** A page larger than this is rendered each time rather than kept. */
const MAX_PAGE_CHARS = 256 * 1024;

/**
 * Rendered share pages by validator. The validator covers everything the page is made of
 * (the artifact as a link holder sees it and the card's live state), so a hit is exactly
 * the page a render would produce now; rendering the card's markdown is most of a share
 * page's CPU.
 */
export class SharePageCache {
  readonly #pages = new LruMap<string, string>(CAPACITY);

  get(etag: string, render: () => string): string {
    const kept = this.#pages.get(etag);
    if (kept !== undefined) return kept;
    const page = render();
    if (page.length <= MAX_PAGE_CHARS) this.#pages.set(etag, page);
    return page;
  }
}
