import { describe, expect, it } from "vitest";
import { useTestWorld } from "../../__tests__/helpers.js";
import { DRIVERS, minimalReceipt, type TestUser } from "../../testing/index.js";
import { fanOut, queueReminders } from "../fanout.js";
import { messageOf, type NotificationContent, plainTextOf, slackBodyOf } from "../render.js";

const DAY = 86_400_000;
const later = (from: Date, ms: number) => new Date(from.getTime() + ms);
const OPTIONS = [
  { id: "approve", label: "Approve tonight" },
  { id: "wait", label: "Wait for the weekend" },
];

/**
 * SPEC §32 with §27: a notification of an ask names its options and its deadline, and
 * reminders of it continue until it is answered or expired.
 */
describe.each(DRIVERS)("notifications of an ask on %s", (driver) => {
  const fx = useTestWorld(driver);

  const slackChannel = async (user: TestUser) =>
    (await fx.world.cairn.invoke("channel_create", user.ctx(), { kind: "slack", target: `https://hooks.example.com/services/T/B/${user.name}` })).id;
  const queued = async (channel: string, trigger: string) =>
    fx.store.query<{ artifact_id: string; content: NotificationContent }>(
      "select artifact_id, content from notifications where channel_id = $1 and trigger = $2 order by created_at",
      [channel, trigger],
    );
  const asking = async (user: TestUser, answerBy: string, action: string) =>
    (
      (await fx.world.cairn.invoke("receipt_create", user.ctx(), {
        ...minimalReceipt({ human_action: action, learned: `${action} ${Math.random()}` }),
        assignee: user.name,
        ask: { options: OPTIONS, answer_by: answerBy },
      })) as { id: string }
    ).id;

  it("names the options and the deadline on every channel's words", async () => {
    const sam = await fx.world.user("sam");
    const channel = await slackChannel(sam);
    const id = await asking(sam, later(new Date(), 2 * DAY).toISOString(), "Approve the orders migration");
    await fanOut(fx.store, new Date());
    const [assigned] = (await queued(channel, "assigned")).filter((n) => n.artifact_id === id);
    expect(assigned?.content.ask?.options).toEqual(OPTIONS);
    const message = messageOf([assigned?.content as NotificationContent], "https://cairn.example.com");
    const deadline = /^Answer by: \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/;
    expect(message.lines).toContain("Choose one: Approve tonight · Wait for the weekend");
    expect(message.lines.some((l) => deadline.test(l))).toBe(true);
    expect(plainTextOf(message)).toContain("Choose one: Approve tonight · Wait for the weekend");
    expect(JSON.stringify(slackBodyOf(message))).toContain("Choose one: Approve tonight · Wait for the weekend");
  });

  it("reminds while the ask is open, and not once it is answered or past its deadline", async () => {
    const kim = await fx.world.user("kim");
    const channel = await slackChannel(kim);
    const now = new Date();
    const open = await asking(kim, later(now, 7 * DAY).toISOString(), "Approve the open one");
    const answered = await asking(kim, later(now, 7 * DAY).toISOString(), "Approve the answered one");
    const expired = await asking(kim, later(now, DAY / 2).toISOString(), "Approve the expired one");
    await fanOut(fx.store, now);
    await fx.world.cairn.invoke("artifact_decide", kim.ctx(), { id: answered, option: "wait" });
    await queueReminders(fx.store, later(now, DAY + 60_000));
    const reminded = (await queued(channel, "reminder")).map((n) => n.artifact_id);
    expect(reminded).toContain(open);
    expect(reminded).not.toContain(answered);
    expect(reminded).not.toContain(expired);
    const [reminder] = (await queued(channel, "reminder")).filter((n) => n.artifact_id === open);
    expect(messageOf([reminder?.content as NotificationContent], "https://cairn.example.com").lines).toContain(
      "Choose one: Approve tonight · Wait for the weekend",
    );
  });

  it("tells the owner's people that the ask was answered once they turn `decided` on (off by default), never the one who answered", async () => {
    const [ana, bo] = [await fx.world.user("ana"), await fx.world.user("bo")];
    const team = await fx.world.team([ana, bo]);
    const [anaChannel, boChannel] = [await slackChannel(ana), await slackChannel(bo)];
    const ask = (action: string) =>
      fx.world.cairn.invoke("receipt_create", ana.ctx(), {
        ...minimalReceipt({ human_action: action, learned: `${action} ${Math.random()}` }),
        owner: team,
        ask: { options: OPTIONS },
      }) as Promise<{ id: string }>;
    const before = await ask("Approve while nobody listens");
    await fanOut(fx.store, new Date());
    await fx.world.cairn.invoke("artifact_decide", bo.ctx(), { id: before.id, option: "approve" });
    await fanOut(fx.store, new Date());
    expect(await queued(anaChannel, "decided")).toEqual([]);

    expect((await fx.world.cairn.invoke("notifications_get", ana.ctx(), {})).triggers.decided).toBe(false);
    for (const user of [ana, bo]) await fx.world.cairn.invoke("notifications_set", user.ctx(), { triggers: { decided: true } });
    const made = await ask("Approve the rollout");
    await fanOut(fx.store, new Date());
    await fx.world.cairn.invoke("artifact_decide", bo.ctx(), { id: made.id, option: "wait", comment: "After the freeze" });
    await fanOut(fx.store, new Date());
    const [told] = await queued(anaChannel, "decided");
    expect(told?.artifact_id).toBe(made.id);
    const message = messageOf([told?.content as NotificationContent], "https://cairn.example.com");
    expect(message.title).toMatch(/^Answered: /);
    const decided = new RegExp(`^Decided: Wait for the weekend — ${bo.name}, \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC$`);
    expect(
      message.lines.some((l) => decided.test(l)),
      message.lines.join("\n"),
    ).toBe(true);
    expect(message.lines).toContain("Comment: After the freeze");
    expect(await queued(boChannel, "decided")).toEqual([]);
  });
});
