import { type Artifact, classifyDrop, type DropCategory, faultOf } from "@cairn/core";
import { diff, normalize } from "./normalize.js";
import type { Actor, Driver, Outcome, Scenario } from "./types.js";

export interface ParityEnv {
  /** A fresh user, so one driver's writes never collide with another's. */
  newActor(): Promise<Actor>;
  /** The reference driver; policies and setup receipts always go through it. */
  reference: Driver;
  /** The server's public URL, which next actions name where they send a person to a page. */
  serverUrl: string;
}

export interface SurfaceResult {
  surface: string;
  /** Normalised outcome, or null when the driver does not offer this step. */
  result: unknown;
  /** Problems found: a difference from the reference, a wrong recorded surface, or the driver failing outright. */
  problems: string[];
}

interface Run {
  outcome: Outcome | null;
  /** The acting user's name, then the second user's if the row has one (normalised away). */
  names: string[];
}

const label = (scenario: Scenario) => `scenario "${scenario.name}"`;

/** The answer at a dotted path of the N-th setup answer. */
function setupValue(scenario: Scenario, answers: readonly unknown[], ref: string): unknown {
  const [index, ...path] = ref.split(".");
  if (!/^\d+$/.test(index ?? "") || Number(index) >= answers.length) {
    throw new Error(`${label(scenario)} refers to setup step ${index}, which it does not have`);
  }
  return path.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], answers[Number(index)]);
}

/** An input with its `$N.path`, `$actor` and `$other` placeholders filled in for this actor. */
function resolve(scenario: Scenario, value: unknown, answers: readonly unknown[], names: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(scenario, v, answers, names));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(scenario, v, answers, names)]));
  }
  if (typeof value !== "string") return value;
  const ref = /^\$(\d+(?:\.[a-z_0-9]+)*)$/.exec(value);
  if (ref) return setupValue(scenario, answers, ref[1] as string);
  return value.replaceAll("$actor", names[0] as string).replaceAll("$other", names[1] ?? "$other");
}

/** The actor's starting state, through the reference: its policy, then the setup steps. Returns their answers. */
async function prepare(env: ParityEnv, actors: { actor: Actor; other: Actor | null }, names: readonly string[], scenario: Scenario): Promise<unknown[]> {
  const { actor, other } = actors;
  const call = env.reference.call as NonNullable<Driver["call"]>;
  if (scenario.policy) {
    const set = await call(actor, "policy_set", scenario.policy);
    if (!set?.ok) throw new Error(`policy of ${label(scenario)} failed: ${JSON.stringify(set)}`);
  }
  const answers: unknown[] = [];
  for (const step of scenario.setup ?? []) {
    const as = step.as === "other" ? other : actor;
    if (!as) throw new Error(`${label(scenario)} has a step as the other user but no other user`);
    const done = await call(as, step.operation, resolve(scenario, step.input, answers, names));
    if (!done || done.ok === (step.refused === true)) throw new Error(`setup of ${label(scenario)} failed: ${JSON.stringify(done)}`);
    answers.push(done.ok ? done.value : done.error);
  }
  return answers;
}

async function runOn(env: ParityEnv, driver: Driver, scenario: Scenario): Promise<Run> {
  const actor = await env.newActor();
  const other = scenario.other ? await env.newActor() : null;
  const names = [actor.name, ...(other ? [other.name] : [])];
  try {
    const answers = await prepare(env, { actor, other }, names, scenario);
    const input = resolve(scenario, scenario.step.input, answers, names);
    return { outcome: driver.call ? await driver.call(actor, scenario.step.operation, input) : null, names };
  } finally {
    await driver.release?.(actor);
  }
}

/** Writes and drops must record the surface they came through; normalisation hides it, so it is checked here. */
function surfaceProblems(driver: Driver, scenario: Scenario, outcome: Outcome, serverUrl: string): string[] {
  const recorded: Array<[what: string, surface: unknown]> = [];
  const written = scenario.step.operation === "receipt_create" || scenario.step.operation === "artifact_create";
  if (outcome.ok && written) {
    recorded.push(["provenance surface", (outcome.value as { provenance?: { surface?: unknown } }).provenance?.surface]);
  }
  if (!outcome.ok && outcome.error.drop) recorded.push(["drop surface", outcome.error.drop.surface]);
  const problems = recorded
    .filter(([, surface]) => surface !== driver.surface)
    .map(([what, surface]) => `${label(scenario)}: surface ${driver.name} recorded ${what} ${surface}, expected ${driver.surface}`);
  const drop = outcome.ok ? undefined : outcome.error.drop;
  if (drop && driver.surface) {
    // An error carries its drop by the fields surfaces read; its category is one of core's.
    const phrased = classifyDrop(
      drop.category as DropCategory,
      driver.surface,
      faultOf(outcome.ok ? undefined : outcome.error.issues?.[0]),
      serverUrl,
    ).next_action;
    if (drop.next_action !== phrased)
      problems.push(`${label(scenario)}: surface ${driver.name} said next_action ${JSON.stringify(drop.next_action)}, core phrases ${JSON.stringify(phrased)}`);
  }
  return problems;
}

function compare(driver: Driver, scenario: Scenario, run: Run, expected: unknown, referenceName: string, serverUrl: string): SurfaceResult {
  if (!run.outcome) return { surface: driver.name, result: null, problems: [] };
  const actual = normalize(run.outcome, run.names);
  const problems: string[] = [];
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    problems.push(`${label(scenario)}: surface ${driver.name} differs from ${referenceName}:\n${diff(expected, actual)}`);
  }
  problems.push(...surfaceProblems(driver, scenario, run.outcome, serverUrl));
  return { surface: driver.name, result: actual, problems };
}

/** A read-only surface checks what it shows against the artifact the reference produced. */
async function verifyOn(driver: Driver, scenario: Scenario, reference: Outcome): Promise<SurfaceResult> {
  const artifact = reference.ok ? (reference.value as Artifact) : null;
  if (!artifact || typeof artifact.url !== "string" || !artifact.metadata) return { surface: driver.name, result: null, problems: [] };
  const problems = await (driver.verifyArtifact as NonNullable<Driver["verifyArtifact"]>)(artifact);
  return { surface: driver.name, result: artifact.id, problems: problems.map((p) => `${label(scenario)}: surface ${driver.name}: ${p}`) };
}

/** Whether the reference answered what the row says it tests. */
function referenceProblem(scenario: Scenario, outcome: Outcome): string | null {
  const answered = outcome.ok ? "ok" : outcome.error.code;
  if (answered !== scenario.expect) return `answered ${answered}, expected ${scenario.expect}`;
  if (scenario.drop !== undefined) {
    const category = outcome.ok ? undefined : outcome.error.drop?.category;
    if (category !== scenario.drop) return `left a drop of category ${category}, expected ${scenario.drop}`;
  }
  return scenario.check?.(outcome) ?? null;
}

type Settled<T> = { value: T } | { error: unknown };
const settle = <T>(p: Promise<T>): Promise<Settled<T>> =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
const failed = (driver: Driver, scenario: Scenario, error: unknown): SurfaceResult => ({
  surface: driver.name,
  result: null,
  problems: [`${label(scenario)}: surface ${driver.name} failed: ${error instanceof Error ? error.message : String(error)}`],
});

/**
 * Runs one scenario through the reference and every driver and compares each with the
 * reference. Every driver acts as its own fresh user, so they run side by side; a driver
 * that throws is a problem of that surface, not of the whole scenario.
 */
export async function runScenario(env: ParityEnv, drivers: Driver[], scenario: Scenario): Promise<SurfaceResult[]> {
  const referenceRun = settle(runOn(env, env.reference, scenario));
  const runs = drivers.map((d) => (d.verifyArtifact ? null : settle(runOn(env, d, scenario))));
  const reference = await referenceRun;
  if ("error" in reference || !reference.value.outcome) {
    await Promise.all(runs);
    throw "error" in reference ? reference.error : new Error(`the reference driver cannot run ${label(scenario)}`);
  }
  const outcome = reference.value.outcome;
  const wrong = referenceProblem(scenario, outcome);
  if (wrong) {
    await Promise.all(runs);
    throw new Error(`${label(scenario)}: the reference ${env.reference.name} ${wrong}, so the row does not test what it says`);
  }
  const expected = normalize(outcome, reference.value.names);
  return Promise.all(
    drivers.map(async (driver, i) => {
      const run = runs[i];
      if (!run) {
        const verified = await settle(verifyOn(driver, scenario, outcome));
        return "error" in verified ? failed(driver, scenario, verified.error) : verified.value;
      }
      const done = await run;
      return "error" in done ? failed(driver, scenario, done.error) : compare(driver, scenario, done.value, expected, env.reference.name, env.serverUrl);
    }),
  );
}
