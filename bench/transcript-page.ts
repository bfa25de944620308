/**
 * The page of `npm run bench:transcript` (bundled as an ES module by bench/transcript.mjs and served by the reference
 * service's `fallback`, one origin, beside the widget's script: the script-tag build, or src/define.ts bundled). It
 * drives the real `<voice-agent-widget>`, through its DOM and public API only, in a real text
 * conversation with the reference service (demo/service) over a real socket, and hands the widget further frames as the
 * integration tests do (test/integration/voice-helpers.ts `inject`): a `message` event dispatched on the widget's own
 * socket, so they go through the session's one reader of frames like the service's.
 *
 * `window.__setup(options)` mounts the element, opens the panel, starts a text conversation, waits for the service's
 * first message and fills the transcript to `size` messages: pairs of `user_transcript` and `agent_response` (markdown:
 * paragraphs, emphasis, links, lists, code blocks), the last one a short reply streamed unmeasured (warm-up).
 *
 * `window.__stream(deltas)` streams one reply (`agent_chat_response_part` start, one `delta` per string of `deltas`,
 * stop, then `agent_response`) and, for each delta, marks `delta:<i>:start` / `delta:<i>:end` (User Timing, read from
 * the Chromium trace by bench/transcript.mjs) and measures in the page (performance.now(), ms):
 * - `renderMs`: the frame dispatched → the element's update done (`updateComplete`): the session, the transcript
 *   entry, Lit's render and the element's `updated` hooks;
 * - `layoutMs`: right after that, a forced style and layout of the transcript (`getBoundingClientRect` of its last
 *   message): what the frame's style and layout cost;
 * then waits for the next frame to be rendered (`requestAnimationFrame`, then a task) before the next delta.
 */
import type { VoiceAgentWidget } from '../src/widget/voice-agent-widget.js';

/** Options of `__setup`. */
export interface TranscriptSetup {
  serverUrl: string;
  agentId: string;
  /** Messages in the transcript before the measured reply (the service's first message included). */
  size: number;
}

/** What `__stream` measured, one value per delta (ms). */
export interface TranscriptStreamResults {
  renderMs: number[];
  layoutMs: number[];
  /** Messages (`.message`) in the transcript at the end. */
  messages: number;
}

const sockets: WebSocket[] = [];
const NativeWebSocket = window.WebSocket;
/** Keeps the widget's sockets, to hand frames to the latest one. */
class TappedWebSocket extends NativeWebSocket {
  constructor(url: string | URL, protocols?: string | string[]) {
    super(url, protocols);
    sockets.push(this);
  }
}
window.WebSocket = TappedWebSocket;

let widget: VoiceAgentWidget | null = null;
let nextEventId = 10_000;

/** Hands `frame` to the widget as if the service had sent it on its socket. */
function inject(frame: Record<string, unknown>): void {
  sockets.at(-1)!.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(frame) }));
}

const root = (): ShadowRoot => widget!.shadowRoot!;

/** Resolves once `check` holds (polled every 20 ms); rejects after `timeoutMs`. */
async function until(check: () => unknown, what: string, timeoutMs = 20_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves after the next frame has been rendered: a task queued from its animation frame callback. */
const nextFrame = (): Promise<void> =>
  new Promise((resolve) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(null);
    }),
  );

/** An agent message of about 250 characters of markdown, a code block in every fifth. */
function agentText(i: number): string {
  const lines = [
    `Sure, here is **answer ${i}**: the [pricing page](https://example.com/pricing/${i}) has the details, and _the docs_ explain the rest.`,
    `- first, check the plan\n- then the \`limits\` of it\n- and ask again if anything is unclear`,
  ];
  if (i % 5 === 0) lines.push('```js\nconst total = items.reduce((sum, item) => sum + item.price, 0);\nconsole.log(total);\n```');
  return lines.join('\n\n');
}

/** Streams `text` split into `deltas` as one reply (start, deltas, stop, agent_response), `measure` around each delta. */
async function streamReply(deltas: readonly string[], measure: (i: number, apply: () => void) => Promise<void>): Promise<void> {
  const eventId = nextEventId++;
  inject({ type: 'agent_chat_response_part', text_response_part: { text: '', type: 'start', event_id: eventId } });
  await widget!.updateComplete;
  for (let i = 0; i < deltas.length; i++) {
    await measure(i, () => inject({ type: 'agent_chat_response_part', text_response_part: { text: deltas[i], type: 'delta', event_id: eventId } }));
  }
  inject({ type: 'agent_chat_response_part', text_response_part: { text: '', type: 'stop', event_id: eventId } });
  inject({ type: 'agent_response', agent_response_event: { agent_response: deltas.join(''), event_id: eventId } });
  await widget!.updateComplete;
  await nextFrame();
}

/** What `__setup` made: the messages in the transcript, and the shadow elements one plain message of each side adds. */
export interface TranscriptSetupResults {
  messages: number;
  /** Elements a plain visitor's message added (`user_transcript`). */
  userElements: number;
  /** Elements a plain agent reply added (`agent_response`, with its like and dislike: `feedback_mode: during`). */
  agentElements: number;
}

/**
 * The shadow elements `add()` adds once the element has drawn its line (the `selector` lines one more): a visitor's
 * line waits for the reply that follows it (up to STREAM_DRAW_MS), so an update alone is not enough.
 */
async function elementsAdded(add: () => void, selector: string): Promise<number> {
  const before = root().querySelectorAll('*').length;
  const lines = root().querySelectorAll(selector).length;
  add();
  await until(() => root().querySelectorAll(selector).length > lines, `a new ${selector}`);
  await widget!.updateComplete;
  return root().querySelectorAll('*').length - before;
}

async function setup({ serverUrl, agentId, size }: TranscriptSetup): Promise<TranscriptSetupResults> {
  await customElements.whenDefined('voice-agent-widget');
  widget = document.createElement('voice-agent-widget') as VoiceAgentWidget;
  widget.setAttribute('agent-id', agentId);
  widget.setAttribute('server-url', serverUrl);
  document.body.append(widget);
  await until(() => widget!.shadowRoot?.querySelector('.launcher:not([disabled]), [part~="panel"]'), 'the launcher');
  widget.open();
  await widget.startConversation({ mode: 'text' });
  await until(() => root().querySelector('.message.agent:not(.greeting)[aria-busy="false"]'), "the service's first message");
  // The service's first message is message 1, the warm-up reply the last: pairs of a visitor's line and an agent's
  // reply in between.
  // One plain line of each side first (outside the measured sizes' fill; the service's first message is line 1).
  const userElements = await elementsAdded(() =>
    inject({ type: 'user_transcript', user_transcription_event: { user_transcript: 'A plain question.', event_id: nextEventId } }), '.message.user');
  const agentElements = await elementsAdded(() =>
    inject({ type: 'agent_response', agent_response_event: { agent_response: 'A plain answer.', event_id: nextEventId++ } }), '.message.agent');
  for (let count = 3, i = 0; count < size - 1; i++) {
    const eventId = nextEventId++;
    inject({ type: 'user_transcript', user_transcription_event: { user_transcript: `Question ${i}: how does item ${i} work?`, event_id: eventId } });
    count++;
    if (count < size - 1) {
      inject({ type: 'agent_response', agent_response_event: { agent_response: agentText(i), event_id: eventId } });
      count++;
    }
    if (i % 50 === 0) await widget.updateComplete;
  }
  await widget.updateComplete;
  await nextFrame();
  await nextFrame();
  await streamReply(['Warming ', 'up: ', 'a **short** ', 'reply ', 'first.'], async (_, apply) => {
    apply();
    await widget!.updateComplete;
    await nextFrame();
  });
  return { messages: root().querySelectorAll('.message').length, userElements, agentElements };
}

async function stream(deltas: readonly string[]): Promise<TranscriptStreamResults> {
  const renderMs: number[] = [];
  const layoutMs: number[] = [];
  await streamReply(deltas, async (i, apply) => {
    performance.mark(`delta:${i}:start`);
    const t0 = performance.now();
    apply();
    await widget!.updateComplete;
    const t1 = performance.now();
    root().querySelector('.transcript > :last-child')?.getBoundingClientRect();
    const t2 = performance.now();
    await nextFrame();
    performance.mark(`delta:${i}:end`);
    renderMs.push(t1 - t0);
    layoutMs.push(t2 - t1);
  });
  return { renderMs, layoutMs, messages: root().querySelectorAll('.message').length };
}

Object.assign(window, { __setup: setup, __stream: stream });
