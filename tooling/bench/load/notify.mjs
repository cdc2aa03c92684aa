// The notify row: what notifications cost POST /v1/receipts (SPEC §27). One `cairn serve`; the
// same receipts (asking a person, owned by a team of the writer and three others) to a team whose
// other members have three channels each (two Slack, one ntfy, loopback receivers that count
// what arrives) and, in alternating rounds of the same run, to a team whose members have none.
import { readFileSync } from "node:fs";
import autocannon from "autocannon";
import { figure, QUICK } from "../lib.mjs";
import { benchDatabase, cpuMs, startCairn } from "./procs.mjs";

const DURATION = QUICK ? 3 : 10;
const EXAMPLE = JSON.parse(readFileSync(new URL("../../../examples/receipt.json", import.meta.url), "utf8"));
let seq = 0;
const body = (owner) => JSON.stringify({ ...EXAMPLE, owner, human_action: "Review the retry alerts", learned: `${EXAMPLE.learned} #${process.pid}-${seq++}` });

async function call(url, token, method, path, json) {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${await res.text()}`);
  return res.json();
}

async function load(cairn, owner) {
  const before = await cpuMs(cairn.pid);
  const r = await autocannon({
    url: cairn.url,
    connections: 32,
    duration: DURATION,
    timeout: 30,
    requests: [
      {
        method: "POST",
        path: "/v1/receipts",
        headers: { authorization: `Bearer ${cairn.token}`, "content-type": "application/json" },
        setupRequest: (req) => ({ ...req, body: body(owner) }),
      },
    ],
  });
  const bad = r.non2xx + r.errors + r.timeouts;
  if (bad > 0) throw new Error(`cairn answered ${bad} non-2xx or errors under load`);
  const done = r.requests.total;
  return { perSecond: done / DURATION, p50: r.latency.p50, p99: r.latency.p99, cpu: ((await cpuMs(cairn.pid)) - before) / Math.max(1, done) };
}

const BURST = QUICK ? 500 : 2_000;

/** The receipts one Slack message showed (its section's /a/ links) and the "and N more" it admits to. */
function shownIn(body) {
  const section = JSON.parse(body).blocks.find((b) => b.type === "section")?.text?.text ?? "";
  return { ids: [...section.matchAll(/\/a\/(art_[0-9a-z]+)/g)].map((m) => m[1]), more: Number(/and (\d+) more/.exec(section)?.[1] ?? 0) };
}

/**
 * SPEC §37: after a burst of BURST receipts assigned to one person with one Slack channel, how
 * fast the channel drains (messages a minute, from the first message to the one that shows the
 * last receipt) and whether every receipt was shown exactly once.
 */
async function burst(cairn, driver, startReceiver) {
  const slack = await startReceiver("/services/T/B/burst");
  try {
    const user = await call(cairn.url, cairn.token, "POST", "/v1/users", { name: "burst" });
    const token = user.token.token;
    await call(cairn.url, token, "POST", "/v1/me/channels", { kind: "slack", target: slack.url });
    const ids = new Set();
    const started = performance.now();
    for (let i = 0; i < BURST; i += 20) {
      const made = await Promise.all(
        Array.from({ length: Math.min(20, BURST - i) }, (_, j) =>
          call(cairn.url, token, "POST", "/v1/receipts", {
            ...EXAMPLE,
            human_action: `Check burst item ${i + j}`,
            learned: `burst ${i + j}`,
            assignee: "burst",
          }),
        ),
      );
      for (const m of made) ids.add(m.id);
    }
    const written = performance.now();
    const seen = new Set();
    let shownTwice = 0;
    let counted = 0;
    const deadline = Date.now() + 15 * 60_000;
    while (seen.size < ids.size && Date.now() < deadline) {
      for (; counted < slack.received.length; counted++) {
        for (const id of shownIn(slack.received[counted].body).ids) {
          if (seen.has(id)) shownTwice++;
          seen.add(id);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    const messages = slack.received.length;
    if (messages === 0) throw new Error(`the burst channel got no message in 15 minutes`);
    const spanMin = (slack.received.at(-1).at - slack.received[0].at) / 60_000;
    const admitted = slack.received.filter((r) => shownIn(r.body).more > 0).length;
    figure({
      name: `Slack drain after a ${BURST}-receipt burst, messages/min (${driver})`,
      value: (messages - 1) / Math.max(spanMin, 1 / 60),
      unit: "msg/min",
      baselineName: "three a minute (before SPEC §37)",
      baseline: 3,
      target: 10,
      higherIsBetter: true,
      extra: {
        receipts_shown: seen.size,
        shown_twice: shownTwice,
        messages,
        messages_saying_and_n_more: admitted,
        write_s: Math.round((written - started) / 100) / 10,
        drained_s_after_writes: Math.round((slack.received.at(-1).at - (written + performance.timeOrigin)) / 100) / 10,
      },
    });
    if (seen.size !== ids.size || shownTwice > 0) throw new Error(`the burst showed ${seen.size} of ${ids.size} receipts, ${shownTwice} twice`);
  } finally {
    await slack.close();
  }
}

export async function benchNotify(drivers, { startReceiver }) {
  for (const driver of drivers) {
    const receivers = [await startReceiver("/services/T/B/one"), await startReceiver("/services/T/B/two"), await startReceiver("/topic")];
    const db = await benchDatabase(driver);
    let cairn;
    try {
      cairn = await startCairn(db);
      const admin = cairn.token;
      for (const team of ["quiet", "ops"]) await call(cairn.url, admin, "POST", "/v1/teams", { name: team });
      for (const team of ["quiet", "ops"]) {
        for (let i = 0; i < 3; i++) {
          const user = await call(cairn.url, admin, "POST", "/v1/users", { name: `${team}-${i}` });
          await call(cairn.url, admin, "POST", `/v1/teams/${team}/members`, { user: `${team}-${i}` });
          if (team !== "ops") continue;
          const [a, b, c] = receivers;
          await call(cairn.url, user.token.token, "POST", "/v1/me/channels", { kind: "slack", target: a.url });
          await call(cairn.url, user.token.token, "POST", "/v1/me/channels", { kind: "slack", target: b.url });
          await call(cairn.url, user.token.token, "POST", "/v1/me/channels", { kind: "ntfy", target: c.url });
        }
      }
      await load(cairn, "team:quiet"); // warm-up
      const best = { none: null, three: null };
      for (let round = 0; round < (QUICK ? 1 : 2); round++) {
        const none = await load(cairn, "team:quiet");
        const three = await load(cairn, "team:ops");
        if (!best.none || none.perSecond > best.none.perSecond) best.none = none;
        if (!best.three || three.perSecond > best.three.perSecond) best.three = three;
      }
      const label = `POST /v1/receipts, 3 members × 3 channels`;
      figure({
        name: `${label} receipts/s (${driver})`,
        value: best.three.perSecond,
        unit: "req/s",
        baselineName: "same, members without channels",
        baseline: best.none.perSecond,
        target: 0.8,
        higherIsBetter: true,
      });
      figure({ name: `${label} p99 (${driver})`, value: best.three.p99, unit: "ms", baselineName: "without channels p99", baseline: best.none.p99 });
      figure({
        name: `${label} server CPU ms/receipt (${driver})`,
        value: best.three.cpu,
        unit: "ms",
        baselineName: "without channels",
        baseline: best.none.cpu,
      });
      console.log(JSON.stringify({ note: "messages received by the loopback channels", count: receivers.reduce((n, r) => n + r.received.length, 0) }));
      await burst(cairn, driver, startReceiver);
    } finally {
      await cairn?.stop();
      await db.dispose();
      for (const r of receivers) await r.close();
    }
  }
}
