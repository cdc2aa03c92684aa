import { diff, normalize } from "./normalize.js";
import type { Artifact } from "@cairn/core";
import type { Actor, Driver, Outcome, Scenario } from "./types.js";

export interface ParityEnv {
  /** A fresh user, so one driver's writes never collide with another's. */
  newActor(): Promise<Actor>;
  /** The reference driver; setup steps always run through it. */
  reference: Driver;
}

export interface SurfaceResult {
  surface: string;
  /** Normalised outcome, or null when the driver does not offer this step. */
  result: unknown;
  /** Problems found: a difference from the reference, or a wrong provenance surface. */
  problems: string[];
}

async function runStep(driver: Driver, actor: Actor, scenario: Scenario, setupIds: string[]): Promise<Outcome | null> {
  const step = scenario.step;
  switch (step.kind) {
    case "create":
      return driver.createReceipt ? driver.createReceipt(actor, step.input) : null;
    case "read":
      return driver.read ? driver.read(actor, setupIds[step.of] as string) : null;
    case "search":
      return driver.search ? driver.search(actor, { ...(step.q && { q: step.q }), ...(step.tag && { tag: step.tag }) }) : null;
  }
}

async function runOn(env: ParityEnv, driver: Driver, scenario: Scenario): Promise<{ outcome: Outcome | null; actor: Actor }> {
  const actor = await env.newActor();
  const setupIds: string[] = [];
  for (const input of scenario.setup ?? []) {
    const created = await env.reference.createReceipt?.(actor, input);
    if (!created?.ok) throw new Error(`setup of "${scenario.name}" failed: ${JSON.stringify(created)}`);
    setupIds.push((created.value as { id: string }).id);
  }
  return { outcome: await runStep(driver, actor, scenario, setupIds), actor };
}

/** Runs one scenario through every driver and compares each with the reference. */
export async function runScenario(env: ParityEnv, drivers: Driver[], scenario: Scenario): Promise<SurfaceResult[]> {
  const reference = await runOn(env, env.reference, scenario);
  if (!reference.outcome) throw new Error(`the reference driver cannot run "${scenario.name}"`);
  const expected = normalize(reference.outcome, reference.actor.name);

  const results: SurfaceResult[] = [];
  for (const driver of drivers) {
    if (driver.verifyArtifact) {
      results.push(await verifyOn(driver, scenario, reference.outcome));
      continue;
    }
    const { outcome, actor } = await runOn(env, driver, scenario);
    if (!outcome) {
      results.push({ surface: driver.name, result: null, problems: [] });
      continue;
    }
    const actual = normalize(outcome, actor.name);
    const problems: string[] = [];
    if (JSON.stringify(actual) !== JSON.stringify(expected)) {
      problems.push(`scenario "${scenario.name}": surface ${driver.name} differs from ${env.reference.name}:\n${diff(expected, actual)}`);
    }
    if (scenario.step.kind === "create" && outcome.ok) {
      const surface = (outcome.value as { provenance?: { surface?: string } }).provenance?.surface;
      if (surface !== driver.surface) {
        problems.push(`scenario "${scenario.name}": surface ${driver.name} recorded provenance surface ${surface}, expected ${driver.surface}`);
      }
    }
    results.push({ surface: driver.name, result: actual, problems });
  }
  return results;
}

/** A read-only surface checks what it shows against the artifact the reference produced. */
async function verifyOn(driver: Driver, scenario: Scenario, reference: Outcome): Promise<SurfaceResult> {
  const artifact = reference.ok ? (reference.value as Artifact) : null;
  if (!artifact || typeof artifact.url !== "string" || !artifact.metadata) return { surface: driver.name, result: null, problems: [] };
  const problems = await (driver.verifyArtifact as NonNullable<Driver["verifyArtifact"]>)(artifact);
  return {
    surface: driver.name,
    result: artifact.id,
    problems: problems.map((p) => `scenario "${scenario.name}": surface ${driver.name}: ${p}`),
  };
}
