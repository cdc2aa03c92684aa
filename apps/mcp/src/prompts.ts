import { RECEIPT_PROMPT, receiptPromptText } from "@cairn/core";
import type { GetPromptResult, ListPromptsResult } from "@modelcontextprotocol/server";
import { RPC_INVALID_PARAMS, RpcError } from "./rpc.js";

/** The one prompt: the nine questions, for a client's slash-command menu. Texts are core's. */
export const PROMPTS: ListPromptsResult = {
  prompts: [
    {
      name: RECEIPT_PROMPT.name,
      title: RECEIPT_PROMPT.title,
      description: RECEIPT_PROMPT.description,
      arguments: [{ name: "task", description: RECEIPT_PROMPT.taskDescription, required: false }],
    },
  ],
};

export function getPrompt(name: string, args: Record<string, string> | undefined): GetPromptResult {
  if (name !== RECEIPT_PROMPT.name) {
    throw new RpcError(RPC_INVALID_PARAMS, `Unknown prompt ${JSON.stringify(name)}; the prompts are ${RECEIPT_PROMPT.name}.`);
  }
  return {
    description: RECEIPT_PROMPT.description,
    messages: [{ role: "user", content: { type: "text", text: receiptPromptText(args?.task) } }],
  };
}
