/**
 * The page's client tools (PROTOCOL.md section 3, `client_tool_call`), kept in one store: the element fills it
 * (`clientTools`, `registerClientTool`, `clientToolHandler`), the start sequence adds a conversation's own tools (from
 * `voice-agent-before-start`), and the conversation reads it when the agent calls a tool (find-client-tool.ts
 * `findClientTool`, in the conversation chunk). Nobody keeps a copy: the store lives in the launcher's first script, so
 * tools given before the conversation part loads are simply there.
 */
import type { ClientTool } from '../events/before-start.js';

/** Answers a `client_tool_call`: resolves to the result text, rejects for an error (sent with `is_error: true`). */
export type ClientToolHandler = (toolName: string, parameters: Record<string, unknown>) => Promise<string>;

/** Keeps the entries of `tools` that are functions; anything else (not an object, a non-function value) is left out. */
const functionsOf = (tools: unknown): Record<string, ClientTool> =>
  Object.fromEntries(Object.entries(tools && typeof tools === 'object' ? tools : {}).filter(([, tool]) => typeof tool === 'function'));

/**
 * One element's client tools: the page's (`page`, by name), the running conversation's (`conversation`, by name;
 * replaced when a conversation starts) and the page's fallback `handler`. `findClientTool` (find-client-tool.ts)
 * answers which runs a call: the conversation's tool, then the page's, then the handler.
 */
export class ClientToolStore {
  #page: Record<string, ClientTool> = {};
  #handler: ClientToolHandler | null = null;

  /** The page's tools by name; values that are not functions are left out when set. */
  get page(): Record<string, ClientTool> {
    return this.#page;
  }
  set page(tools: Record<string, ClientTool>) {
    this.#page = functionsOf(tools);
  }

  /**
   * The tools of the conversation that starts, asked first: `voice-agent-before-start`'s, already checked by
   * `readBeforeStart` (config/initiation.ts), which reports and leaves out what is not a function.
   */
  conversation: Record<string, ClientTool> = {};

  /** The page's handler of the calls no tool answers; anything but a function reads as null. */
  get handler(): ClientToolHandler | null {
    return this.#handler;
  }
  set handler(handler: ClientToolHandler | null) {
    this.#handler = typeof handler === 'function' ? handler : null;
  }

  /**
   * Adds one page tool (see `page`).
   * @returns a function that removes it again (nothing when another tool has taken the name since)
   * @throws TypeError when `name` is not a non-empty string or `tool` not a function
   */
  register(name: string, tool: ClientTool): () => void {
    if (typeof name !== 'string' || !name || typeof tool !== 'function') throw new TypeError('registerClientTool(name, tool): a name and a function');
    this.#page = { ...this.#page, [name]: tool };
    return () => {
      if (this.#page[name] !== tool) return;
      const { [name]: _removed, ...rest } = this.#page;
      this.#page = rest;
    };
  }
}
