/** What the browser tests read: two people, receipts of every shape, a run that produced one, and a drop. */
export interface Seeded {
  sam: { name: string; token: string };
  eve: { name: string; token: string };
  full: { id: string; url: string };
  minimal: { id: string; url: string };
  plain: { id: string };
  run: { id: string };
  /** A run made from an OpenTelemetry trace (POST /v1/traces): status, attributes, a long value, markup as text. */
  traced: { id: string };
}

/** A word with no break opportunity, longer than a phone is wide (a checksum, a token, a path). */
export const LONG_WORD = `sha256:${"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".repeat(3)}`;

async function call<T>(base: string, token: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as T;
  if (res.status >= 400 && path !== "/v1/receipts") throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

export async function seed(base: string, adminToken: string): Promise<Seeded> {
  const person = async (name: string) => {
    const created = await call<{ token: { token: string } }>(base, adminToken, "POST", "/v1/users", { name });
    return { name, token: created.token.token };
  };
  const sam = await person("sam");
  const eve = await person("eve");
  const as = <T>(method: string, path: string, body?: unknown) => call<T>(base, sam.token, method, path, body);

  const plain = await as<{ id: string }>("POST", "/v1/artifacts", {
    title: "Runbook: rotating the export credentials",
    body: "# Rotating\n\n1. Open the vault.\n2. Run `cairn policy get`.\n\n<b>raw html stays text</b>",
    tags: ["runbook"],
  });
  const minimal = await as<{ id: string; url: string }>("POST", "/v1/receipts", {
    changed: "Rotated the staging database password",
    affected: "Staging services",
    before: "The old password was shared in a chat.",
    after: "A new password lives only in the vault.",
    evidence: [],
    outcome: { status: "not_applicable" },
    remaining: [],
    learned: "nothing new",
    tags: ["staging"],
  });
  const full = await as<{ id: string; url: string }>("POST", "/v1/receipts", {
    changed: "Nightly export now retries failed uploads",
    affected: "Finance analysts who read the morning export",
    before: `A single failed upload left the export empty until someone re-ran it by hand. Last bad file: ${LONG_WORD}`,
    after: "Failed uploads are retried three times with backoff; the export is complete by 06:00.",
    evidence: [
      { label: "CI run 4812 (green)", url: "https://ci.example.com/runs/4812" },
      { label: "Export dashboard", url: "https://grafana.example.com/d/export" },
    ],
    evidence_note: "The retry path was exercised by killing the upload target for five minutes.",
    outcome: { status: "pending", measure_at: "2026-12-07" },
    human_action: "Approve the retry budget in `#finance-ops` before Friday.",
    remaining: [
      { item: "Alert when all three retries fail", owner: "sam" },
      { item: "Document the maintenance window", owner: "platform team" },
    ],
    learned: "The upload target drops connections during its 02:00 maintenance window.",
    title: "Export retries failed uploads",
    details: "## Notes\n\nRetries use exponential backoff starting at 30 s.\n\n```sh\ncairn run close run_123\n```",
    tags: ["export", "finance"],
    model: "opus-5",
  });
  // A refused receipt leaves a drop for the doctor page.
  await as("POST", "/v1/receipts", {
    changed: "too thin",
    affected: "x",
    before: "x",
    after: "x",
    evidence: [],
    outcome: { status: "not_applicable" },
    remaining: [],
    learned: "x",
  });

  const run = await as<{ id: string }>("POST", "/v1/runs", { name: "nightly-export" });
  await as("POST", `/v1/runs/${run.id}/spans`, {
    spans: [
      { span_id: "root", name: "nightly-export", start_time: "2026-11-30T02:00:00Z", end_time: "2026-11-30T02:03:10Z" },
      { span_id: "fetch", parent_span_id: "root", name: "fetch-ledger", start_time: "2026-11-30T02:00:05Z", end_time: "2026-11-30T02:01:20Z" },
      { span_id: "upload", parent_span_id: "root", name: "upload-with-retries", start_time: "2026-11-30T02:01:20Z", end_time: "2026-11-30T02:02:50Z" },
      {
        span_id: "receipt",
        parent_span_id: "root",
        name: "write-receipt",
        start_time: "2026-11-30T02:02:55Z",
        end_time: "2026-11-30T02:03:00Z",
        produced_artifact_id: full.id,
      },
    ],
  });
  await as("POST", `/v1/runs/${run.id}/close`);
  const traced = await tracedRun(base, sam.token);
  return { sam, eve, full, minimal, plain, run, traced };
}

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

/** An agent's trace as the OpenTelemetry GenAI conventions write it, sent as OTLP/JSON. */
async function tracedRun(base: string, token: string): Promise<{ id: string }> {
  const t0 = BigInt(Date.parse("2026-11-30T09:00:00Z")) * 1_000_000n;
  const at = (ms: number) => String(t0 + BigInt(ms) * 1_000_000n);
  const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
  const int = (key: string, value: number) => ({ key, value: { intValue: String(value) } });
  const messages = JSON.stringify([
    { role: "system", content: "You plan trips. Prefer trains under 4 hours." },
    { role: "user", content: `Book me Paris to Amsterdam on Friday, back Sunday; budget 400 EUR. ${"Keep it simple. ".repeat(12)}` },
  ]);
  const span = (spanId: string, parent: string | null, name: string, from: number, to: number, attributes: unknown[], status?: unknown) => ({
    traceId: TRACE_ID,
    spanId,
    ...(parent && { parentSpanId: parent }),
    name,
    kind: 1,
    startTimeUnixNano: at(from),
    endTimeUnixNano: at(to),
    attributes,
    ...(status !== undefined && { status }),
  });
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [str("service.name", "travel-service"), str("service.version", "1.4.2"), str("telemetry.sdk.language", "nodejs")] },
        scopeSpans: [
          {
            scope: { name: "travel-agent", version: "0.3.0" },
            spans: [
              span("a1b2c3d4e5f60718", null, "invoke_agent travel-planner", 0, 8400, [
                str("gen_ai.operation.name", "invoke_agent"),
                str("gen_ai.agent.name", "travel-planner"),
                str("gen_ai.request.model", "opus-5"),
                int("gen_ai.usage.input_tokens", 5120),
                int("gen_ai.usage.output_tokens", 642),
                str("gen_ai.input.messages", messages),
              ]),
              span(
                "b1b2c3d4e5f60718",
                "a1b2c3d4e5f60718",
                "execute_tool search_trains",
                300,
                2900,
                [
                  str("gen_ai.operation.name", "execute_tool"),
                  str("gen_ai.tool.name", "search_trains"),
                  str("gen_ai.tool.call.arguments", '{"from":"Paris","to":"Amsterdam","date":"Friday"}'),
                ],
                { code: 1 },
              ),
              span(
                "c1b2c3d4e5f60718",
                "a1b2c3d4e5f60718",
                "execute_tool book_hotel",
                3100,
                7900,
                [
                  str("gen_ai.operation.name", "execute_tool"),
                  str("gen_ai.tool.name", "book_hotel"),
                  str("note", "<script>alert('not run')</script> stays text"),
                ],
                { code: 2, message: "No rooms left under 150 EUR" },
              ),
            ],
          },
        ],
      },
    ],
  };
  const sent = await fetch(`${base}/v1/traces`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  if (sent.status !== 200) throw new Error(`POST /v1/traces: ${sent.status} ${await sent.text()}`);
  const runs = await call<{ items: Array<{ id: string }> }>(base, token, "GET", `/v1/runs?q=${TRACE_ID}`);
  const [run] = runs.items;
  if (!run) throw new Error("the traced run was not made");
  return { id: run.id };
}
