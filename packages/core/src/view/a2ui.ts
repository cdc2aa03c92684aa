import type { AskView } from "./decision.js";
import type { ReceiptRenderView } from "./receipt-app.js";

/** The A2UI revision the messages declare, and the catalog they use (A2UI's basic catalog). */
export const A2UI_VERSION = "v0.9.1";
export const A2UI_BASIC_CATALOG_ID = "https://a2ui.org/specification/v0_9/catalogs/basic/catalog.json";
/** The MIME type of the A2UI resource and route: a JSON array of A2UI messages. */
export const A2UI_MIME_TYPE = "application/a2ui+json";
/** The only components the messages use, all in the basic catalog (a test holds them to it). */
export const A2UI_COMPONENTS = ["Card", "Column", "Row", "Text", "List", "Divider", "Button"] as const;

type Component = { id: string; component: (typeof A2UI_COMPONENTS)[number]; [prop: string]: unknown };
export type A2uiMessage =
  | { version: typeof A2UI_VERSION; createSurface: { surfaceId: string; catalogId: string } }
  | { version: typeof A2UI_VERSION; updateComponents: { surfaceId: string; components: Component[] } }
  | { version: typeof A2UI_VERSION; updateDataModel: { surfaceId: string; path: string; value: Record<string, unknown> } };

/** Only http(s) is opened by the basic catalog's openUrl; an mcp://cairn/ link opens its page in Cairn instead. */
const openable = (url: string) => /^https?:\/\//i.test(url);

/**
 * A receipt's card as A2UI v0.9.1 messages over the basic catalog (SPEC §25): create the
 * surface, lay out the components, then the data model. Labels are literal in the
 * components; every value the receipt's author wrote is in the data model and bound by
 * path, so no user text is ever read as structure. Same order and words as the web card:
 * header, TL;DR, the action chip, who is affected, before and after, evidence or "No
 * evidence linked", outcome, what remains, what the system now knows, then the links to
 * the receipt's page (openUrl).
 */
export function receiptA2uiMessages(view: ReceiptRenderView): A2uiMessage[] {
  const { card } = view;
  const surfaceId = `receipt-${view.id}`;
  const components: Component[] = [];
  const data: Record<string, unknown> = {};
  const add = (c: Component) => {
    components.push(c);
    return c.id;
  };
  const label = (id: string, text: string) => add({ id, component: "Text", text, variant: "caption" });
  const bound = (id: string, key: string, value: string, variant?: string) => {
    data[key] = value;
    return add({ id, component: "Text", text: { path: `/${key}` }, ...(variant && { variant }) });
  };
  const section = (id: string, children: string[]) => add({ id, component: "Column", children });
  const link = (id: string, text: string, url: string, variant: "default" | "borderless" = "default") => {
    const child = add({ id: `${id}-text`, component: "Text", text });
    return add({ id, component: "Button", child, variant, action: { functionCall: { call: "openUrl", args: { url }, returnType: "void" } } });
  };

  /**
   * The ask (SPEC §32): while open, one Button per option, each opening the receipt's page,
   * where the signed-in person answers (the host's model cannot); then the deadline. Once
   * answered or expired, the decision in words and the comment. Option labels are the
   * author's words, so they are bound like every other value.
   */
  const askSection = (ask: AskView) => {
    const parts = [label("ask-label", ask.options.label)];
    if (ask.decision !== null) {
      parts.push(bound("decision", "decision", ask.decision, "h4"));
      if (ask.comment !== null) parts.push(bound("decision-comment", "decision_comment", `${ask.comment.label}: ${ask.comment.text}`));
    } else {
      const buttons = ask.options.items.map((o, i) => {
        const child = bound(`ask-option-${i}-text`, `ask_option_${i}`, o.label);
        return add({
          id: `ask-option-${i}`,
          component: "Button",
          child,
          action: { functionCall: { call: "openUrl", args: { url: view.page }, returnType: "void" } },
        });
      });
      parts.push(add({ id: "ask-options", component: "Row", children: buttons }));
      if (ask.answer_by !== null) parts.push(bound("answer-by", "answer_by", `${ask.answer_by.label} ${ask.answer_by.text}`, "caption"));
    }
    return add({ id: "ask", component: "Card", child: section("ask-body", parts) });
  };

  const body: string[] = [];
  body.push(bound("header", "header", card.header, "caption"));
  if (view.title !== card.tldr.text) body.push(bound("title", "title", view.title, "h3"));
  body.push(bound("tldr", "tldr", card.tldr.text, "h2"));

  const chip = [bound("action", "action", `${card.action.label}: ${card.action.text}`, "h4")];
  if (card.action.acknowledged !== null) chip.push(bound("acknowledged", "acknowledged", card.action.acknowledged, "caption"));
  if (card.assignee !== null) chip.push(bound("assignee", "assignee", `${card.assignee.label} ${card.assignee.user}`, "caption"));
  body.push(add({ id: "action-chip", component: "Card", child: section("action-body", chip) }));
  if (card.ask !== null) body.push(askSection(card.ask));

  body.push(section("affected-section", [label("affected-label", card.affected.label), bound("affected", "affected", card.affected.text)]));
  const before = section("before-section", [label("before-label", card.before.label), bound("before", "before", card.before.text)]);
  const after = section("after-section", [label("after-label", card.after.label), bound("after", "after", card.after.text)]);
  body.push(add({ id: "before-after", component: "Row", children: [before, after] }));

  const evidence = [label("evidence-label", card.evidence.label)];
  if (card.evidence.empty !== null) evidence.push(bound("evidence-empty", "evidence_empty", card.evidence.empty, "h4"));
  else {
    const items = card.evidence.links.map((e, i) => {
      const page = e.open ? new URL(e.open.href, view.page).href : null;
      if (openable(e.url)) return link(`evidence-${i}`, e.label, e.url, "borderless");
      if (page) return link(`evidence-${i}`, `${e.label} (${e.open?.label})`, page, "borderless");
      return bound(`evidence-${i}`, `evidence_${i}`, `${e.label}: ${e.url}`);
    });
    evidence.push(add({ id: "evidence-list", component: "List", children: items }));
  }
  if (card.evidence.note !== null) evidence.push(bound("evidence-note", "evidence_note", card.evidence.note.text, "caption"));
  body.push(section("evidence-section", evidence));

  const o = card.outcome;
  const status = [o.status.text, o.measure_at && `${o.measure_at.label.toLowerCase()} ${o.measure_at.text}`, o.mark].filter(Boolean).join(" · ");
  const outcome = [label("outcome-label", o.label), bound("outcome", "outcome", status)];
  if (o.summary !== null) outcome.push(bound("outcome-summary", "outcome_summary", o.summary.text));
  body.push(section("outcome-section", outcome));

  const remaining = [label("remaining-label", card.remaining.label)];
  if (card.remaining.empty !== null) remaining.push(bound("remaining-empty", "remaining_empty", card.remaining.empty));
  else {
    const items = card.remaining.items.map((r, i) => bound(`remaining-${i}`, `remaining_${i}`, `${r.item} — ${r.owner}`));
    remaining.push(add({ id: "remaining-list", component: "List", children: items }));
  }
  body.push(section("remaining-section", remaining));

  body.push(section("learned-section", [label("learned-label", card.learned.label), bound("learned", "learned", card.learned.text)]));
  body.push(add({ id: "divider", component: "Divider" }));
  body.push(add({ id: "links", component: "Row", children: view.links.map((l) => link(`link-${l.action}`, l.label, l.href)) }));
  body.push(label("hint", view.hint));

  const root: Component = { id: "root", component: "Card", child: section("card", body) };
  return [
    { version: A2UI_VERSION, createSurface: { surfaceId, catalogId: A2UI_BASIC_CATALOG_ID } },
    { version: A2UI_VERSION, updateComponents: { surfaceId, components: [root, ...components] } },
    { version: A2UI_VERSION, updateDataModel: { surfaceId, path: "/", value: data } },
  ];
}
