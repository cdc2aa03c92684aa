import { describe, expect, it } from "vitest";
import { receiptPromptText, receiptQuestions } from "../questions.js";

describe("the receipt questions", () => {
  it("are nine, one per answer field, each a question taken from the field's description", () => {
    const questions = receiptQuestions();
    expect(questions.map((q) => q.field)).toEqual(["changed", "affected", "before", "after", "evidence", "outcome", "human_action", "remaining", "learned"]);
    for (const q of questions) {
      expect(q.question, q.field).toMatch(/^[A-Z][^?]+\?$/);
    }
    expect(questions[0]).toMatchObject({ question: "What changed?" });
    expect(questions.find((q) => q.field === "learned")?.hint).toContain("nothing new");
  });

  it("make a prompt that names the task, every question, the tool and the expiry", () => {
    const text = receiptPromptText("  migrate the billing cron  ");
    expect(text).toContain("this task: migrate the billing cron");
    for (const q of receiptQuestions()) expect(text).toContain(q.question);
    expect(text).toContain("receipt_create");
    expect(text).toMatch(/expires .* unless they retain it/);
    expect(receiptPromptText()).toContain("the task you just finished");
  });
});
