import { CairnError } from "../errors.js";

export async function rejectionOf(p: Promise<unknown>): Promise<CairnError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof CairnError) return err;
    throw err;
  }
  throw new Error("expected a rejection");
}

/** Everything written to the console while fn runs, as one string (and nothing printed). */
export async function captureConsole<T>(fn: () => Promise<T>): Promise<{ result: T; output: string }> {
  const lines: string[] = [];
  const methods = ["log", "error", "warn", "info", "debug"] as const;
  const saved = methods.map((m) => console[m]);
  for (const m of methods) console[m] = (...args: unknown[]) => void lines.push(args.map(String).join(" "));
  try {
    return { result: await fn(), output: lines.join("\n") };
  } finally {
    methods.forEach((m, i) => {
      console[m] = saved[i] as (typeof console)[typeof m];
    });
  }
}
