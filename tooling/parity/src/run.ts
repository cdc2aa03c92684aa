import { type Artifact, classifyDrop } from "@cairn/core";
import { diff, normalize } from "./normalize.js";
import type { Actor, Driver, Outcome, Scenario } from "./types.js";

export interface ParityEnv {
  /** A fresh user, so one driver's writes never collide with another's. */
  newActor(): Promise<Actor>;
  /** The reference driver; policies and setup receipts always go through it. */
  reference: Driver;
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
  actor: Actor;
}

const label = (scenario: Scenario) => `scenario "${scenario.name}"`;

function setupId(scenario: Scenario, ids: readonly string[], index: number): string {
  const id = ids[index];
  if (id === undefined) throw new Error(`${label(scenario)} refers to setup receipt ${index}, which it does not create`);
  return id;
}

async function runStep(driver: Driver, actor: Actor, scenario: Scenario, ids: readonly string[]): Promise<Outcome | null> {
  const step = scenario.step;
  switch (step.kind) {
    case "create": {
      if (!driver.createReceipt) return null;
      const input = step.follows === undefined ? step.input : { ...(step.input as object), follows: setupId(scenario, ids, step.follows) };
      return driver.createReceipt(actor, input);
    }
    case "read":
      return driver.read ? driver.read(actor, "id" in step ? step.id : setupId(scenario, ids, step.of)) : null;
    case "search":
      return driver.search ? driver.search(actor, { ...(step.q && { q: step.q }), ...(step.tag && { tag: step.tag }) }) : null;
  }
}

/** The actor's starting state, through the reference: its policy, then the setup receipts. Returns their ids. */
async function prepare(env: ParityEnv, actor: Actor, scenario: Scenario): Promise<string[]> {
  if (scenario.policy) {
    if (!env.reference.setPolicy) throw new Error(`${label(scenario)} sets a policy; the reference driver cannot`);
    const set = await env.reference.setPolicy(actor, scenario.policy);
    if (!set.ok) throw new Error(`policy of ${label(scenario)} failed: ${JSON.stringify(set.error)}`);
  }
  const ids: string[] = [];
  for (const input of scenario.setup ?? []) {
    const created = await env.reference.createReceipt?.(actor, input);
    if (!created?.ok) throw new Error(`setup of ${label(scenario)} failed: ${JSON.stringify(created)}`);
    ids.push((created.value as { id: string }).id);
  }
  return ids;
}

async function runOn(env: ParityEnv, driver: Driver, scenario: Scenario): Promise<Run> {
  const actor = await env.newActor();
  try {
    const ids = await prepare(env, actor, scenario);
    return { outcome: await runStep(driver, actor, scenario, ids), actor };
  } finally {
    await driver.release?.(actor);
  }
}

/** Writes and drops must record the surface they came through; normalisation hides it, so it is checked here. */
function surfaceProblems(driver: Driver, scenario: Scenario, outcome: Outcome): string[] {
  const recorded: Array<[what: string, surface: unknown]> = [];
  if (outcome.ok && scenario.step.kind === "create") {
    recorded.push(["provenance surface", (outcome.value as { provenance?: { surface?: unknown } }).provenance?.surface]);
  }
  if (!outcome.ok && outcome.error.drop) recorded.push(["drop surface", outcome.error.drop.surface]);
  const problems = recorded
    .filter(([, surface]) => surface !== driver.surface)
    .map(([what, surface]) => `${label(scenario)}: surface ${driver.name} recorded ${what} ${surface}, expected ${driver.surface}`);
  const drop = outcome.ok ? undefined : outcome.error.drop;
  if (drop && driver.surface) {
    const phrased = classifyDrop(drop.category, driver.surface).next_action;
    if (drop.next_action !== phrased) problems.push(`${label(scenario)}: surface ${driver.name} said next_action ${JSON.stringify(drop.next_action)}, core phrases ${JSON.stringify(phrased)}`);
  }
  return problems;
}

function compare(driver: Driver, scenario: Scenario, run: Run, expected: unknown, referenceName: string): SurfaceResult {
  if (!run.outcome) return { surface: driver.name, result: null, problems: [] };
  const actual = normalize(run.outcome, run.actor.name);
  const problems: string[] = [];
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    problems.push(`${label(scenario)}: surface ${driver.name} differs from ${referenceName}:\n${diff(expected, actual)}`);
  }
  problems.push(...surfaceProblems(driver, scenario, run.outcome));
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
const settle = <T>(p: Promise<T>): Promise<Settled<T>> => p.then((value) => ({ value }), (error: unknown) => ({ error }));
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
  const expected = normalize(outcome, reference.value.actor.name);
  return Promise.all(
    drivers.map(async (driver, i) => {
      const run = runs[i];
      if (!run) {
        const verified = await settle(verifyOn(driver, scenario, outcome));
        return "error" in verified ? failed(driver, scenario, verified.error) : verified.value;
      }
      const done = await run;
      return "error" in done ? failed(driver, scenario, done.error) : compare(driver, scenario, done.value, expected, env.reference.name);
    }),
  );
}
