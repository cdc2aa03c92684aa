import { A2uiMessageSchema, MessageProcessor } from "@a2ui/web_core/v0_9";
import { basicCatalog } from "@a2ui/web_core/v0_9/basic_catalog";

/** A processed A2UI surface, read back: each component's name and properties, and the data model. */
export interface ProcessedSurface {
  components: Map<string, { component: string; properties: Record<string, unknown> }>;
  data(path: string): unknown;
  /** Every Text's words in the layout's order (bound texts read from the data model), from `root` down. */
  texts(): string[];
}

/**
 * Holds A2UI messages to A2UI itself (@a2ui/web_core 0.11): each one parses with its
 * A2uiMessageSchema; the MessageProcessor with the basic catalog takes them all (it throws
 * on a known component with bad properties, or an unknown catalog); and every component
 * name is one of the basic catalog's, which the processor does not check itself.
 */
export function processA2ui(messages: unknown[]): ProcessedSurface {
  for (const m of messages) A2uiMessageSchema.parse(m);
  const processor = new MessageProcessor([basicCatalog]);
  processor.processMessages(messages as never);
  const created = messages.find((m) => (m as { createSurface?: unknown }).createSurface) as { createSurface: { surfaceId: string } };
  const surface = processor.model.getSurface(created.createSurface.surfaceId);
  if (!surface) throw new Error("no surface was created");
  const components = new Map<string, { component: string; properties: Record<string, unknown> }>();
  for (const [id, model] of surface.componentsModel.entries) {
    const m = model as unknown as { type: string; properties: Record<string, unknown> };
    if (!basicCatalog.components.has(m.type)) throw new Error(`component ${id} is a ${m.type}, which the basic catalog does not have`);
    components.set(id, { component: m.type, properties: m.properties });
  }
  const data = (path: string) => surface.dataModel.get(path);
  const texts = () => {
    const out: string[] = [];
    const walk = (id: string) => {
      const c = components.get(id);
      if (!c) throw new Error(`component ${id} is referenced but not defined`);
      const p = c.properties;
      if (c.component === "Text") {
        const text = p.text as string | { path: string };
        out.push(typeof text === "string" ? text : String(data(text.path)));
      }
      for (const child of [p.child, ...((p.children as string[] | undefined) ?? [])]) if (typeof child === "string") walk(child);
    };
    walk("root");
    return out;
  };
  return { components, data, texts };
}
