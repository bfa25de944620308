// The scripted text agent of the reference Voice Agent Service: which reply a user message gets,
// the exact reply texts (also those to speech: speechTranscript, voiceReply), dynamic-variable filling and the
// split of a reply into streamed parts.
// Pure functions only (no sockets, no timers), so every rule can be tested alone.

/** Reply to a message that contains "bye"; the service closes the socket (1000) after sending it. */
export const GOODBYE_REPLY = 'Goodbye! Thanks for talking with me.';

/**
 * Reply to a message that contains "link": allowed, disallowed and dangerous links and raw HTML,
 * to exercise the widget's link policy and sanitiser (see README.md for the expected outcome).
 */
export const LINKS_REPLY = [
  'Here are some links to check the link policy:',
  '',
  '- [pricing](https://acme.example/pricing)',
  '- [docs](https://docs.acme.example/start)',
  '- [www](https://www.acme.example/about)',
  '- [phish](https://evil.example/login)',
  '- [plain http](http://acme.example/insecure)',
  '- [run](javascript:alert(1))',
  '- [sub](https://shop.acme.example/)',
  '',
  'And some raw HTML: <img src="x" onerror="alert(1)"> <script>alert(1)</script> <a href="https://evil.example/x" style="position:fixed;inset:0">cover</a>',
].join('\n');

/** Reply to a message that contains "markdown". */
export const MARKDOWN_REPLY = [
  '### A short markdown sample',
  '',
  '- a **bold** point',
  '- an *italic* point',
  '- some `inline code`',
  '',
  '```js',
  "const greeting = 'hello';",
  '```',
  '',
  'Ask me for *links* next.',
].join('\n');

/** The client tool the agent calls for a message that contains "tool" or "time". */
export const TOOL_NAME = 'get_page_time';
/** Parameters of that tool call. */
export const TOOL_PARAMETERS = Object.freeze({ format: 'iso' });
/** Reply when the page did not answer the tool call in time. */
export const TOOL_TIMEOUT_REPLY = 'The page did not answer the tool call.';

/**
 * The default reply: echoes the user's text as sent (unescaped: the widget sanitises).
 * @param {string} text
 */
export function echoReply(text) {
  return `You said: **${text}**. Ask me for *links*, a *tool*, some *markdown*, or say *bye*.`;
}

/**
 * Seconds as the voice texts say them: one decimal, at least 0.1.
 * @param {number} durationSeconds
 */
function seconds(durationSeconds) {
  const value = Number.isFinite(durationSeconds) ? Math.max(0.1, durationSeconds) : 0.1;
  return value.toFixed(1);
}

/**
 * The final user transcript of a stretch of speech: the service does not recognise words, so it says honestly what
 * it heard, e.g. `(speech, 1.4 s)`.
 * @param {number} durationSeconds
 */
export function speechTranscript(durationSeconds) {
  return `(speech, ${seconds(durationSeconds)} s)`;
}

/**
 * The reply to a stretch of speech (the voice counterpart of echoReply).
 * @param {number} durationSeconds
 */
export function voiceReply(durationSeconds) {
  return `I heard about ${seconds(durationSeconds)} seconds of speech. I can't make out words, but you can type a message, or ask me for *links*, a *tool*, some *markdown*, or say *bye*.`;
}

/**
 * @typedef {{kind: 'end', text: string}
 *   | {kind: 'links', text: string}
 *   | {kind: 'tool', toolName: string, parameters: Record<string, unknown>}
 *   | {kind: 'markdown', text: string}
 *   | {kind: 'echo', text: string}} ScriptedReply
 */

/**
 * Chooses the reply to a user message (case-insensitive substring rules, first match wins):
 * "bye" → end, "link" → links, "tool" or "time" → tool call, "markdown" → markdown, else echo.
 * @param {string} userText
 * @returns {ScriptedReply}
 */
export function scriptedReply(userText) {
  const text = String(userText);
  const lower = text.toLowerCase();
  if (lower.includes('bye')) return { kind: 'end', text: GOODBYE_REPLY };
  if (lower.includes('link')) return { kind: 'links', text: LINKS_REPLY };
  if (lower.includes('tool') || lower.includes('time')) {
    return { kind: 'tool', toolName: TOOL_NAME, parameters: { ...TOOL_PARAMETERS } };
  }
  if (lower.includes('markdown')) return { kind: 'markdown', text: MARKDOWN_REPLY };
  return { kind: 'echo', text: echoReply(text) };
}

/**
 * The reply that follows a tool call.
 * @param {{result: unknown, isError?: boolean} | null} outcome null when the page did not answer in time
 * @returns {string}
 */
export function toolReply(outcome) {
  if (!outcome) return TOOL_TIMEOUT_REPLY;
  const result = stringifyValue(outcome.result);
  return outcome.isError ? `The tool failed: ${result}` : `The page answered: ${result}`;
}

/**
 * Stringifies a value for a reply or a dynamic variable: null/undefined → '', strings as they are,
 * objects as JSON, everything else through String().
 * @param {unknown} value
 * @returns {string}
 */
export function stringifyValue(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'object') {
    try {
      return JSON.stringify(value);
    } catch {
      return String(value);
    }
  }
  return String(value);
}

/**
 * Fills `{{name}}` placeholders (spaces inside the braces allowed) from `variables`.
 * A missing variable becomes an empty string; values are stringified.
 * @param {string} template
 * @param {Record<string, unknown> | null | undefined} variables
 * @returns {string}
 */
export function fillDynamicVariables(template, variables) {
  const vars = variables && typeof variables === 'object' ? variables : {};
  return String(template).replace(/\{\{\s*([A-Za-z0-9_.\-]+)\s*\}\}/g, (_match, name) =>
    Object.prototype.hasOwnProperty.call(vars, name) ? stringifyValue(vars[name]) : '',
  );
}

/**
 * Splits a reply into streamed parts of 2 or 3 words (alternating), keeping all whitespace, so that
 * `splitReply(text).join('') === text`. An empty text gives no parts.
 * @param {string} text
 * @returns {string[]}
 */
export function splitReply(text) {
  const source = String(text);
  if (source === '') return [];
  const words = source.match(/\s*\S+\s*/g);
  if (!words) return [source];
  /** @type {string[]} */
  const parts = [];
  let index = 0;
  let size = 2;
  while (index < words.length) {
    parts.push(words.slice(index, index + size).join(''));
    index += size;
    size = size === 2 ? 3 : 2;
  }
  return parts;
}
