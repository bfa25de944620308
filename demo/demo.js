// The demo page: an agent picker that (re)creates <voice-agent-widget>, a client tool, the conversation record, and a
// live editor of the agent's widget configuration. Plain ES module, no build step. Every text that comes from the
// network is set with textContent (or as a form control's value).
import { loadDemoConfig } from './demo-config.js';

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
const shareLink = /** @type {HTMLAnchorElement} */ ($('share-link'));

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

/** The client tool the scripted agent calls ("tool" or "time"), registered through the widget's API. */
const getPageTime = () => new Date().toISOString();

/** The widget's public events, shown as they fire in the event log (README "The host page's API"). */
const EVENTS = ['voice-agent-before-start', 'voice-agent-conversation', 'voice-agent-status', 'voice-agent-message', 'voice-agent-error', 'voice-agent-conversation-end'];
/** How many lines the event log keeps. */
const LOG_LINES = 60;

/** Adds one event to the log (newest first), as text: the event's name and its detail as JSON, shortened. */
function logEvent(/** @type {Event} */ event) {
  const list = $('event-log');
  const item = document.createElement('li');
  const detail = JSON.stringify(/** @type {CustomEvent} */ (event).detail, (key, value) => (typeof value === 'function' ? '(function)' : value)) ?? '';
  item.textContent = `${new Date().toLocaleTimeString()}  ${event.type}  ${detail.length > 200 ? `${detail.slice(0, 197)}...` : detail}`;
  list.prepend(item);
  while (list.children.length > LOG_LINES) list.lastElementChild?.remove();
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
    for (const type of EVENTS) widget.removeEventListener(type, logEvent);
    widget.remove();
  }
  const element = document.createElement(TAG);
  element.setAttribute('agent-id', agentId);
  element.setAttribute('server-url', config.serviceUrl);
  element.setAttribute('dynamic-variables', DYNAMIC_VARIABLES);
  /** @type {any} */ (element).registerClientTool('get_page_time', getPageTime);
  for (const type of EVENTS) element.addEventListener(type, logEvent);
  element.addEventListener('voice-agent-conversation', onConversationEvent);
  element.addEventListener('voice-agent-conversation-end', onConversationEndEvent);
  document.body.append(element);
  widget = element;
}

/** Points "Open the shareable page" at this agent. */
function updateShareLink(/** @type {string} */ agentId) {
  shareLink.href = `/share.html?${new URLSearchParams({ 'agent-id': agentId })}`;
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
  updateShareLink(agentId);
  void loadEditor(agentId);
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

// ------------------------------------------------------------------ widget configuration editor
// Reads the agent with the dev key (GET /v1/convai/agents/{id}), shows platform_settings.widget as JSON, and saves it
// with PATCH (the service deep-merges; SERVICE-INTERFACE.md 2.7 / 2.11). A save replaces the widget: the preview.

const editorForm = /** @type {HTMLFormElement} */ ($('editor-form'));
const jsonArea = /** @type {HTMLTextAreaElement} */ ($('config-json'));
const editorStatus = $('editor-status');
const saveButton = $('editor-save');
const resetButton = $('editor-reset');
const variantField = /** @type {HTMLSelectElement} */ ($('field-variant'));
const placementField = /** @type {HTMLSelectElement} */ ($('field-placement'));
const accentPicker = /** @type {HTMLInputElement} */ ($('field-accent-picker'));
const accentField = /** @type {HTMLInputElement} */ ($('field-accent'));
const mainLabelField = /** @type {HTMLInputElement} */ ($('field-main-label'));
const languageField = /** @type {HTMLInputElement} */ ($('field-language'));
/** The select option that stands for a value in the JSON that the select does not list. */
const OTHER = '__other';
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;
const SHORT_HEX_COLOUR = /^#[0-9a-f]{3}$/i;

/**
 * Widget fields that the service serves from conversation_config when they are set there (they win over the widget's
 * own): the editor shows those values and saves them to both places.
 */
const CONVERSATION_FIELDS = /** @type {const} */ ([
  { key: 'first_message', section: 'agent', type: 'string' },
  { key: 'language', section: 'agent', type: 'string' },
  { key: 'text_only', section: 'conversation', type: 'boolean' },
]);

const editor = {
  /** @type {string | null} the agent whose configuration the editor holds (or is loading) */ agentId: null,
  loaded: false,
  busy: false,
  /** @type {AbortController | null} */ request: null,
};

/** @param {unknown} value @returns {value is Record<string, any>} */
const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Says how the last load or save went, in the aria-live region; `lines` become a list (the 422 details).
 * @param {string} message @param {string[]} [lines] @param {'info' | 'success' | 'error'} [kind]
 */
function setEditorStatus(message, lines = [], kind = 'info') {
  const paragraph = document.createElement('p');
  paragraph.textContent = message;
  /** @type {HTMLElement[]} */
  const children = [paragraph];
  if (lines.length > 0) {
    const list = document.createElement('ul');
    for (const line of lines) {
      const item = document.createElement('li');
      item.textContent = line;
      list.append(item);
    }
    children.push(list);
  }
  editorStatus.dataset.kind = kind;
  editorStatus.replaceChildren(...children);
}

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

/**
 * The widget configuration as the service serves it: platform_settings.widget, with the conversation_config values
 * that win over it.
 * @param {any} agent the agent read (SERVICE-INTERFACE.md 2.7)
 */
function widgetOf(agent) {
  const widget = isRecord(agent?.platform_settings?.widget) ? { ...agent.platform_settings.widget } : {};
  const cc = isRecord(agent?.conversation_config) ? agent.conversation_config : {};
  for (const { key, section, type } of CONVERSATION_FIELDS) {
    const value = isRecord(cc[section]) ? cc[section][key] : undefined;
    if (typeof value === type) widget[key] = value;
  }
  return widget;
}

/** The PATCH body: the whole widget object, and the conversation_config fields that are in it. */
function patchBody(/** @type {Record<string, unknown>} */ widget) {
  /** @type {Record<string, Record<string, unknown>>} */
  const conversationConfig = {};
  for (const { key, section } of CONVERSATION_FIELDS) {
    if (Object.hasOwn(widget, key)) (conversationConfig[section] ??= {})[key] = widget[key];
  }
  /** @type {Record<string, unknown>} */
  const body = { platform_settings: { widget } };
  if (Object.keys(conversationConfig).length > 0) body.conversation_config = conversationConfig;
  return body;
}

/** Parses the textarea: the widget object, or why it is not one. */
function parseEditor() {
  let value;
  try {
    value = JSON.parse(jsonArea.value);
  } catch (error) {
    return { ok: /** @type {const} */ (false), message: messageOf(error) };
  }
  if (!isRecord(value)) return { ok: /** @type {const} */ (false), message: 'the configuration must be a JSON object ({ … })' };
  return { ok: /** @type {const} */ (true), value };
}

/** @param {unknown} value the text a form field shows for a JSON value */
const fieldText = (value) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));

/** Shows a JSON value in a select; a value the select does not list shows as its "other" option. */
function showInSelect(/** @type {HTMLSelectElement} */ field, /** @type {unknown} */ value) {
  const other = /** @type {HTMLOptionElement} */ (field.querySelector(`option[value="${OTHER}"]`));
  const listed = typeof value === 'string' && value !== OTHER && [...field.options].some((option) => option.value === value && !option.hidden);
  if (value === undefined || listed) {
    other.hidden = true;
    field.value = value === undefined ? '' : /** @type {string} */ (value);
  } else {
    other.textContent = `${JSON.stringify(value)} (in the JSON; not a known value)`;
    other.hidden = false;
    field.value = OTHER;
  }
}

/** The form fields follow the JSON. */
function syncFields(/** @type {Record<string, any>} */ widget) {
  showInSelect(variantField, widget.variant);
  showInSelect(placementField, widget.placement);
  const accent = isRecord(widget.styles) ? widget.styles.accent : undefined;
  accentField.value = fieldText(accent);
  syncPicker();
  mainLabelField.value = fieldText(isRecord(widget.text_contents) ? widget.text_contents.main_label : undefined);
  languageField.value = fieldText(widget.language);
}

/** The colour picker follows the accent text when that is a hex colour. */
function syncPicker() {
  const text = accentField.value.trim();
  if (HEX_COLOUR.test(text)) accentPicker.value = text.toLowerCase();
  else if (SHORT_HEX_COLOUR.test(text)) accentPicker.value = `#${[...text.slice(1)].map((digit) => digit + digit).join('')}`.toLowerCase();
}

/** Shows a widget object in the editor (pretty JSON) and in the form fields. */
function showConfig(/** @type {Record<string, unknown>} */ widget) {
  jsonArea.value = JSON.stringify(widget, null, 2);
  syncFields(widget);
}

/**
 * Writes one form field into the JSON: sets `path` to `value`, or removes the key when `value` is ''.
 * @param {string} path dotted, e.g. styles.accent @param {string} value
 */
function applyField(path, value) {
  const parsed = parseEditor();
  if (!parsed.ok) {
    setEditorStatus(`Fix the JSON first (${parsed.message}): the change to ${path} was not applied.`, [], 'error');
    return;
  }
  const keys = path.split('.');
  const last = /** @type {string} */ (keys.pop());
  /** @type {Record<string, any>} */
  let target = parsed.value;
  for (const key of keys) {
    if (!isRecord(target[key])) {
      if (value === '') return; // nothing to remove
      target[key] = {};
    }
    target = target[key];
  }
  if (value === '') delete target[last];
  else target[last] = value;
  jsonArea.value = JSON.stringify(parsed.value, null, 2);
}

for (const field of [variantField, placementField]) {
  field.addEventListener('change', () => {
    if (field.value !== OTHER) applyField(/** @type {string} */ (field.dataset.path), field.value);
  });
}
for (const field of [accentField, mainLabelField, languageField]) {
  field.addEventListener('input', () => {
    if (field === accentField) syncPicker();
    applyField(/** @type {string} */ (field.dataset.path), field === mainLabelField ? field.value : field.value.trim());
  });
}
accentPicker.addEventListener('input', () => {
  accentField.value = accentPicker.value;
  applyField(/** @type {string} */ (accentField.dataset.path), accentPicker.value);
});
jsonArea.addEventListener('input', () => {
  // While the JSON parses, the form fields follow it; while it does not, they keep their last values.
  const parsed = parseEditor();
  if (parsed.ok) syncFields(parsed.value);
});

/** Reads the agent and shows its widget configuration. */
async function loadEditor(/** @type {string} */ agentId, /** @type {string} */ doneMessage = `Loaded the configuration of ${agentId}.`) {
  editor.request?.abort();
  const controller = new AbortController();
  editor.request = controller;
  editor.agentId = agentId;
  editor.loaded = false;
  jsonArea.readOnly = true;
  setEditorStatus(`Loading the configuration of ${agentId}…`);
  try {
    const response = await fetch(`${config.serviceUrl}/v1/convai/agents/${encodeURIComponent(agentId)}`, {
      headers: { 'x-api-key': config.apiKey },
      signal: controller.signal,
      cache: 'no-store',
    });
    if (response.status === 404) {
      showConfig({});
      jsonArea.value = '';
      setEditorStatus(`The service has no agent ${agentId}: there is no configuration to edit.`, [], 'error');
      return;
    }
    if (!response.ok) {
      const text = await response.text();
      setEditorStatus(`Reading the agent failed: HTTP ${response.status} ${text.slice(0, 200)}`, [], 'error');
      return;
    }
    showConfig(widgetOf(await response.json()));
    editor.loaded = true;
    jsonArea.readOnly = false;
    setEditorStatus(doneMessage);
  } catch (error) {
    if (controller.signal.aborted) return;
    setEditorStatus(`Could not reach the service (${messageOf(error)}).`, [], 'error');
  } finally {
    if (editor.request === controller) editor.request = null;
  }
}

/** @param {boolean} busy */
function setEditorBusy(busy) {
  editor.busy = busy;
  // aria-disabled rather than disabled: a disabled button would drop the keyboard focus.
  for (const button of [saveButton, resetButton]) button.setAttribute('aria-disabled', String(busy));
  editorForm.setAttribute('aria-busy', String(busy));
}

/** Saves the JSON (PATCH) and, when the service takes it, replaces the widget with one that reads it. */
async function saveEditor() {
  if (editor.busy) return;
  const agentId = editor.agentId;
  if (!agentId || !editor.loaded) {
    setEditorStatus('There is no configuration loaded to save; nothing was sent.', [], 'error');
    return;
  }
  const parsed = parseEditor();
  if (!parsed.ok) {
    setEditorStatus(`The JSON is not valid, so nothing was sent: ${parsed.message}`, [], 'error');
    return;
  }
  setEditorBusy(true);
  setEditorStatus('Saving…');
  try {
    const response = await fetch(`${config.serviceUrl}/v1/convai/agents/${encodeURIComponent(agentId)}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', 'x-api-key': config.apiKey },
      body: JSON.stringify(patchBody(parsed.value)),
      cache: 'no-store',
    });
    if (editor.agentId !== agentId) return; // another agent was picked meanwhile
    if (response.status === 422) {
      const answer = await response.json().catch(() => null);
      const details = Array.isArray(answer?.detail) ? answer.detail : [];
      const lines = details.map((/** @type {any} */ detail) =>
        `${Array.isArray(detail?.loc) ? detail.loc.join('.') : '(somewhere)'}: ${typeof detail?.msg === 'string' ? detail.msg : 'invalid'}`);
      setEditorStatus(`The service refused the configuration (HTTP 422), nothing was saved:`, lines, 'error');
      return;
    }
    if (!response.ok) {
      const text = await response.text();
      setEditorStatus(`Saving failed: HTTP ${response.status} ${text.slice(0, 200)}`, [], 'error');
      return;
    }
    // Show what the service now holds (PATCH merges: keys removed in the editor are still there).
    showConfig(widgetOf(await response.json()));
    mountWidget(agentId);
    setEditorStatus(`Saved at ${new Date().toLocaleTimeString()}. The widget now shows the saved configuration.`, [], 'success');
  } catch (error) {
    if (editor.agentId === agentId) setEditorStatus(`Could not reach the service (${messageOf(error)}); nothing was saved.`, [], 'error');
  } finally {
    setEditorBusy(false);
  }
}

editorForm.addEventListener('submit', (event) => {
  event.preventDefault();
  void saveEditor();
});
resetButton.addEventListener('click', () => {
  if (editor.busy || !editor.agentId) return;
  void loadEditor(editor.agentId, 'Reset: the configuration was read again from the service.');
});

// ------------------------------------------------------------------ start

async function start() {
  try {
    config = await loadDemoConfig();
  } catch (error) {
    showNotice(/** @type {Error} */ (error).message);
    return;
  }
  $('service-url').textContent = config.serviceUrl;
  const agentId = agentFromUrl();
  fillPicker(agentId);
  updateShareLink(agentId);
  void loadEditor(agentId);

  if (!customElements.get(TAG)) {
    // The bundle is a classic script that ran before this module; if it is not defined now, it did not load.
    showNotice('The widget script /dist/voice-agent-widget.js did not load: run npm run build (npm run demo builds first).');
  }
  // Register the client tool only on an upgraded element, whose method it is.
  await customElements.whenDefined(TAG);
  mountWidget(agentId);
}

void start();
