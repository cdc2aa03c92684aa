import { CairnError } from "@cairn/core";
import { isPlainObject } from "@cairn/core/json";

/**
 * The operation input of a `params+body` route: the body object with the path parameters
 * added. A body that repeats a path parameter with another value is refused rather than
 * silently overridden. A body that is not an object goes to core as it is, which names
 * the problem like on every other surface.
 */
export function mergeParamsIntoBody(params: Record<string, string>, body: unknown): unknown {
  if (body === undefined) return { ...params };
  if (!isPlainObject(body)) return body;
  for (const [key, value] of Object.entries(params)) {
    if (key in body && body[key] !== value) {
      throw new CairnError("validation_failed", `${key}: differs from the ${key} in the path.`, {
        issues: [{ field: key, reason: "differs from the value in the path; leave it out of the body" }],
      });
    }
  }
  return { ...body, ...params };
}
