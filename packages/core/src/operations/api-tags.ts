/**
 * A group of operations in the API's documentation (an OpenAPI tag). Each area declares
 * its own next to its verbs, with the description integrators see beside the group;
 * `API_TAGS` in the registry lists them, and a surface can only name a declared one.
 */
export interface ApiTag<N extends string = string> {
  readonly name: N;
  readonly description: string;
}

export const defineApiTag = <const N extends string>(name: N, description: string): ApiTag<N> => ({ name, description });
