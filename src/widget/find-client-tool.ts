/**
 * Which client tool answers a `client_tool_call` (PROTOCOL.md section 3), read from the element's `ClientToolStore`
 * (client-tools.ts). Only the conversation asks, so in the script-tag build this loads with the conversation chunk,
 * not in the launcher's first script.
 */
import type { ClientTool } from '../events/before-start.js';
import type { ClientToolStore } from './client-tools.js';

/** Own entries only (a tool named `toString` is not found on the prototype). */
const own = (tools: Record<string, ClientTool>, name: string): ClientTool | undefined => (Object.hasOwn(tools, name) ? tools[name] : undefined);

/**
 * What runs the call of tool `name` with its `parameters`: the conversation's tool, then the page's, then the page's
 * handler (called with `name`).
 * @returns a function returning its result (or promise), or null for none
 */
export function findClientTool(tools: ClientToolStore, name: string): ((parameters: Record<string, unknown>) => unknown) | null {
  const tool = own(tools.conversation, name) ?? own(tools.page, name);
  const handler = tools.handler;
  return tool ?? (handler && ((parameters) => handler(name, parameters)));
}
