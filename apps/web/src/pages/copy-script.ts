/**
 * The web's one script (ADR 0033), served from /assets/copy.js: it shows each Copy button
 * (hidden in the markup, so without JavaScript the share link is a plain field to select)
 * and copies its field's value, saying so on the button.
 */
export const COPY_SCRIPT = `"use strict";
for (const button of document.querySelectorAll("button[data-copy]")) {
  const field = document.getElementById(button.dataset.copy);
  if (!field || !navigator.clipboard) continue;
  button.hidden = false;
  button.addEventListener("click", async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy";
    }
  });
}
`;
