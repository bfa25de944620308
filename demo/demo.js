// The demo page: an agent picker that (re)creates <voice-agent-widget>, a client tool, and the conversation record.
// Plain ES module, no build step. Every text that comes from the network is set with textContent.

const TAG = 'voice-agent-widget';
const DEFAULT_AGENT_ID = 'agent_demo_support';
const DYNAMIC_VARIABLES = JSON.stringify({ customer_name: 'Ada' });
const POLL_MS = 2000;
/** Ids the page sends in a URL path: the service's ids are `conv_` + hex; keep to a safe alphabet. */
const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,128}$/;

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const select = /** @type {HTMLSelectElement} */ ($('agent-select'));
const recordForm = /** @type {HTMLFormElement} */ ($('record-form'));
const idInput = /** @type {HTMLInputElement} */ ($('conversation-id'));

/** @type {{serviceUrl: string, apiKey: string, agents: {agent_id: string, name: string}[]}} */
let config = { serviceUrl: location.origin, apiKey: '', agents: [] };
/** @type {HTMLElement | null} */
let widget = null;

// ------------------------------------------------------------------ page notice

/** @param {string} text */
function showNotice(text) {
  const notice = $('page-notice');
  notice.textContent = text;
  notice.hidden = false;
}

// ------------------------------------------------------------------ agent picker and widget

/** The client tool the scripted agent calls ("tool" or "time"). */
async function clientToolHandler(/** @type {string} */ toolName) {
  if (toolName === 'get_page_time') return new Date().toISOString();
  throw new Error(`Unknown client tool: ${toolName}`);
}

/** @param {Event} event */
function onConversationEvent(event) {
  const detail = /** @type {CustomEvent} */ (event).detail;
  const id = detail && typeof detail.conversationId === 'string' ? detail.conversationId : '';
  if (id && id !== record.id) showRecord(id);
}

/** The conversation ended: read its record now rather than at the next poll. */
function onConversationEndEvent(/** @type {Event} */ event) {
  const detail = /** @type {CustomEvent} */ (event).detail;
  if (detail && detail.conversationId && detail.conversationId === record.id && !record.finished) void fetchRecord();
}

/** Replaces the widget with a new one for this agent. */
function mountWidget(/** @type {string} */ agentId) {
  if (widget) {
    widget.removeEventListener('voice-agent-conversation', onConversationEvent);
    widget.removeEventListener('voice-agent-conversation-end', onConversationEndEvent);
    widget.remove();
  }
  const element = document.createElement(TAG);
  element.setAttribute('agent-id', agentId);
  element.setAttribute('server-url', config.serviceUrl);
  element.setAttribute('dynamic-variables', DYNAMIC_VARIABLES);
  /** @type {any} */ (element).clientToolHandler = clientToolHandler;
  element.addEventListener('voice-agent-conversation', onConversationEvent);
  element.addEventListener('voice-agent-conversation-end', onConversationEndEvent);
  document.body.append(element);
  widget = element;
}

/** The agent asked for in the address, else the default. */
function agentFromUrl() {
  const id = new URLSearchParams(location.search).get('agent-id');
  return id && id.trim() ? id.trim().slice(0, 256) : DEFAULT_AGENT_ID;
}

function fillPicker(/** @type {string} */ selected) {
  select.replaceChildren();
  const known = config.agents.some((agent) => agent.agent_id === selected);
  for (const agent of config.agents) {
    const option = document.createElement('option');
    option.value = agent.agent_id;
    option.textContent = `${agent.name} (${agent.agent_id})`;
    select.append(option);
  }
  if (!known) {
    const option = document.createElement('option');
    option.value = selected;
    option.textContent = `${selected} (from the address; not an agent of this service)`;
    select.append(option);
  }
  select.value = selected;
  select.disabled = false;
}

select.addEventListener('change', () => {
  const agentId = select.value;
  const url = new URL(location.href);
  url.searchParams.set('agent-id', agentId);
  history.replaceState(null, '', url);
  mountWidget(agentId);
});

// ------------------------------------------------------------------ conversation record

const record = {
  /** @type {string | null} */ id: null,
  /** @type {ReturnType<typeof setTimeout> | undefined} */ timer: undefined,
  /** @type {AbortController | null} */ request: null,
  finished: false,
};

function setRecordMessage(/** @type {string} */ text) {
  $('record-message').textContent = text;
}

function stopPolling() {
  clearTimeout(record.timer);
  record.timer = undefined;
  record.request?.abort();
  record.request = null;
}

function schedulePoll() {
  clearTimeout(record.timer);
  record.timer = undefined;
  if (!record.id || record.finished || document.hidden) return;
  record.timer = setTimeout(() => void fetchRecord(), POLL_MS);
}

/** Shows the record of this conversation and keeps it fresh until it is `done` or `failed`. */
function showRecord(/** @type {string} */ id) {
  stopPolling();
  record.id = id;
  record.finished = false;
  idInput.value = id;
  $('record').hidden = true;
  setRecordMessage(`Loading the record of ${id}…`);
  void fetchRecord();
}

async function fetchRecord() {
  const id = record.id;
  if (!id) return;
  record.request?.abort();
  const controller = new AbortController();
  record.request = controller;
  try {
    const response = await fetch(`${config.serviceUrl}/v1/voiceai/conversations/${encodeURIComponent(id)}`, {
      headers: { 'x-api-key': config.apiKey },
      signal: controller.signal,
      cache: 'no-store',
    });
    if (record.id !== id) return;
    if (response.status === 404) {
      // The service creates the record before it tells the widget the id, so a 404 is an unknown id.
      setRecordMessage(`The service has no conversation ${id}.`);
      $('record').hidden = true;
      record.finished = true;
    } else if (!response.ok) {
      const text = await response.text();
      setRecordMessage(`Reading the record failed: HTTP ${response.status} ${text.slice(0, 200)}`);
      record.finished = response.status === 401 || response.status === 422;
    } else {
      const body = await response.json();
      renderRecord(body);
      const status = body && typeof body.status === 'string' ? body.status : '';
      record.finished = status === 'done' || status === 'failed';
      setRecordMessage(record.finished ? `Conversation ${id} has ended (${status}).` : `Conversation ${id} is ${status || 'running'}; refreshing every ${POLL_MS / 1000} s.`);
    }
  } catch (error) {
    if (controller.signal.aborted || record.id !== id) return;
    setRecordMessage(`Could not reach the service (${error instanceof Error ? error.message : String(error)}); retrying.`);
  } finally {
    if (record.request === controller) record.request = null;
  }
  if (record.id === id) schedulePoll();
}

/** @param {unknown} value */
const text = (value) => (value === null || value === undefined || value === '' ? '—' : String(value));

/** @param {any} body a conversation record (SERVICE-INTERFACE.md 2.8) */
function renderRecord(body) {
  const metadata = body && typeof body.metadata === 'object' && body.metadata ? body.metadata : {};
  $('record-id').textContent = text(body?.conversation_id);
  $('record-agent').textContent = body?.agent_name ? `${body.agent_name} (${text(body.agent_id)})` : text(body?.agent_id);
  $('record-status').textContent = text(body?.status);
  $('record-start').textContent =
    typeof metadata.start_time_unix_secs === 'number' ? new Date(metadata.start_time_unix_secs * 1000).toLocaleString() : '—';
  $('record-duration').textContent = typeof metadata.call_duration_secs === 'number' ? `${metadata.call_duration_secs} s` : '—';
  $('record-termination').textContent = text(metadata.termination_reason);
  const feedback = metadata.feedback && typeof metadata.feedback === 'object' ? metadata.feedback : {};
  const parts = [`${text(feedback.likes ?? 0)} likes`, `${text(feedback.dislikes ?? 0)} dislikes`, `rating ${text(feedback.rating)}`];
  if (feedback.comment) parts.push(`comment: ${feedback.comment}`);
  $('record-feedback').textContent = parts.join(', ');

  const list = $('record-transcript');
  const items = [];
  for (const entry of Array.isArray(body?.transcript) ? body.transcript : []) {
    const item = document.createElement('li');
    const role = document.createElement('span');
    role.className = 'role';
    role.textContent = `${text(entry?.role)}${entry?.source === 'contextual_update' ? ' (contextual update)' : ''}:`;
    const message = document.createElement('span');
    message.className = 'message';
    message.textContent = ` ${typeof entry?.message === 'string' ? entry.message : ''}`;
    item.append(role, message);
    for (const result of Array.isArray(entry?.tool_results) ? entry.tool_results : []) {
      const tool = document.createElement('span');
      tool.className = 'tool';
      tool.textContent = `tool ${text(result?.tool_name)} → ${text(result?.result_value)}${result?.is_error ? ' (error)' : ''}`;
      item.append(tool);
    }
    items.push(item);
  }
  if (items.length === 0) {
    const item = document.createElement('li');
    item.className = 'empty';
    item.textContent = 'No turns yet.';
    items.push(item);
  }
  list.replaceChildren(...items);
  $('record-updated').textContent = `Last read ${new Date().toLocaleTimeString()}.`;
  $('record').hidden = false;
}

recordForm.addEventListener('submit', (event) => {
  event.preventDefault();
  const id = idInput.value.trim();
  if (!CONVERSATION_ID.test(id)) {
    setRecordMessage('A conversation id is letters, digits, "_" and "-" only (for example conv_0123456789abcdef0123).');
    idInput.focus();
    return;
  }
  showRecord(id);
});

document.addEventListener('visibilitychange', () => {
  if (document.hidden) stopPolling();
  else if (record.id && !record.finished) void fetchRecord();
});

// ------------------------------------------------------------------ start

async function start() {
  try {
    const response = await fetch('/demo-config.json', { cache: 'no-store' });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    config = await response.json();
  } catch (error) {
    showNotice(`Could not read /demo-config.json (${error instanceof Error ? error.message : String(error)}). Start the page with npm run demo.`);
    return;
  }
  $('service-url').textContent = config.serviceUrl;
  const agentId = agentFromUrl();
  fillPicker(agentId);

  if (!customElements.get(TAG)) {
    // The bundle is a classic script that ran before this module; if it is not defined now, it did not load.
    showNotice('The widget script /dist/voice-agent-widget.js did not load: run npm run build (npm run demo builds first).');
  }
  // Set clientToolHandler only on an upgraded element, so the property reaches the element's own setter.
  await customElements.whenDefined(TAG);
  mountWidget(agentId);
}

void start();
