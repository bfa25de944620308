// The shareable page (PROTOCOL.md section 2): /share.html?agent-id=… shows the agent's shareable_page_text as the
// heading, the widget alone and full size (always expanded, variant full), and the terms below it when
// shareable_page_show_terms. Plain ES module, no build step. Every text that comes from the network is set with
// textContent; terms_html is never put into the page as HTML (only its text content is shown).
import { loadDemoConfig } from './demo-config.js';

const TAG = 'voice-agent-widget';
const MAX_AGENT_ID_LENGTH = 256;
/** A BCP 47-like tag for the `lang` attribute of the agent's texts (anything else is not used). */
const LANGUAGE_TAG = /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i;
const DEFAULT_HEADING = 'Talk to an agent';

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** @param {unknown} value @returns {value is Record<string, unknown>} */
const isRecord = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** @param {unknown} value */
const nonEmptyText = (value) => (typeof value === 'string' && value.trim() ? value.trim() : '');

/** The agent asked for in the address; '' when there is none. */
function agentFromUrl() {
  const id = new URLSearchParams(location.search).get('agent-id');
  return id && id.trim() ? id.trim().slice(0, MAX_AGENT_ID_LENGTH) : '';
}

/** Loading is over: the status line goes away. */
function doneLoading() {
  const status = $('share-status');
  status.textContent = '';
  status.hidden = true;
}

/**
 * Shows why there is no widget, and links to the service's agents when the demo configuration lists them.
 * @param {string} message
 * @param {{agent_id: string, name: string}[]} [agents]
 */
function fail(message, agents = []) {
  doneLoading();
  const notice = $('share-notice');
  const text = document.createElement('p');
  text.textContent = message;
  notice.replaceChildren(text);
  if (agents.length > 0) {
    const intro = document.createElement('p');
    intro.textContent = 'Agents of this service:';
    const list = document.createElement('ul');
    for (const agent of agents) {
      const link = document.createElement('a');
      link.href = `/share.html?${new URLSearchParams({ 'agent-id': agent.agent_id })}`;
      link.textContent = `${agent.name} (${agent.agent_id})`;
      const item = document.createElement('li');
      item.append(link);
      list.append(item);
    }
    notice.append(intro, list);
  }
  notice.hidden = false;
}

/**
 * The plain text of `terms_html`: parsed into an inert document (no script runs, nothing loads) and read with
 * textContent; never inserted as HTML.
 * @param {string} html
 */
function textOfHtml(html) {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Shows the heading and, when asked for, the terms (PROTOCOL.md section 2: shareable_page_text, shareable_page_show_terms).
 * A `language_presets` entry for the agent's language wins over the top-level terms, as in the widget.
 * @param {Record<string, unknown>} widgetConfig
 */
function renderTexts(widgetConfig) {
  const language = nonEmptyText(widgetConfig.language);
  const lang = LANGUAGE_TAG.test(language) ? language : '';

  const heading = $('share-heading');
  const pageText = nonEmptyText(widgetConfig.shareable_page_text);
  heading.textContent = pageText || DEFAULT_HEADING;
  if (pageText && lang) heading.lang = lang;
  document.title = (pageText || DEFAULT_HEADING).slice(0, 120);

  if (widgetConfig.shareable_page_show_terms !== true) return;
  const presets = isRecord(widgetConfig.language_presets) ? widgetConfig.language_presets : {};
  const preset = lang && isRecord(presets[lang]) ? presets[lang] : {};
  const termsText = nonEmptyText(preset.terms_text) || nonEmptyText(widgetConfig.terms_text);
  const termsHtml = nonEmptyText(preset.terms_html) || nonEmptyText(widgetConfig.terms_html);
  const terms = termsText || (termsHtml ? textOfHtml(termsHtml) : '');
  if (!terms) return;
  const paragraph = $('terms-text');
  paragraph.textContent = terms;
  if (lang) paragraph.lang = lang;
  $('terms').hidden = false;
}

/** Puts the widget on the page: always expanded, variant full; share.css makes it fill the main area. */
function mountWidget(/** @type {string} */ agentId, /** @type {string} */ serviceUrl) {
  const element = document.createElement(TAG);
  element.setAttribute('agent-id', agentId);
  element.setAttribute('server-url', serviceUrl);
  element.setAttribute('always-expanded', '');
  element.setAttribute('variant', 'full');
  const slot = $('widget-slot');
  slot.replaceChildren(element);
  slot.hidden = false;
}

async function start() {
  /** @type {{serviceUrl: string, apiKey?: string, agents?: {agent_id: string, name: string}[]}} */
  let config;
  try {
    config = await loadDemoConfig();
  } catch (error) {
    fail(/** @type {Error} */ (error).message);
    return;
  }
  const serviceUrl = typeof config.serviceUrl === 'string' && config.serviceUrl ? config.serviceUrl : location.origin;
  const agents = Array.isArray(config.agents) ? config.agents.filter((agent) => isRecord(agent) && typeof agent.agent_id === 'string') : [];

  const agentId = agentFromUrl();
  if (!agentId) {
    fail('No agent was given. Open this page as /share.html?agent-id=<agent id>.', agents);
    return;
  }

  // The public widget read (no key), as the widget itself does it.
  /** @type {Record<string, unknown>} */
  let widgetConfig;
  try {
    const response = await fetch(`${serviceUrl}/v1/convai/agents/${encodeURIComponent(agentId)}/widget`, { cache: 'no-store' });
    if (response.status === 404) {
      fail(`The service has no agent "${agentId}".`, agents);
      return;
    }
    if (!response.ok) {
      fail(`Reading the configuration of agent "${agentId}" failed: HTTP ${response.status}.`);
      return;
    }
    const body = await response.json();
    if (!isRecord(body) || !isRecord(body.widget_config)) {
      fail(`The service answered for agent "${agentId}" without a widget configuration.`);
      return;
    }
    widgetConfig = body.widget_config;
  } catch (error) {
    fail(`Could not reach the service at ${serviceUrl} (${error instanceof Error ? error.message : String(error)}).`);
    return;
  }

  renderTexts(widgetConfig);
  if (!customElements.get(TAG)) {
    // The bundle is a classic script that ran before this module; if it is not defined now, it did not load.
    fail('The widget script /dist/voice-agent-widget.js did not load: run npm run build (npm run demo builds first).');
    return;
  }
  doneLoading();
  mountWidget(agentId, serviceUrl);
}

void start();
