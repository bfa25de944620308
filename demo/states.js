// The states page (states.html): mounts one <voice-agent-widget> for ?agent-id=… with the attributes of ?attrs=<json>
// on a plain page, so screenshots of its states do not depend on the demo page's layout. Plain ES module, no build step.

import { loadDemoConfig } from './demo-config.js';

const TAG = 'voice-agent-widget';
const DEFAULT_AGENT_ID = 'agent_demo_support';
/** The demo page's dynamic variables, so the full agent's first message reads "Hi Ada! …" here too. */
const DYNAMIC_VARIABLES = JSON.stringify({ customer_name: 'Ada' });
/** Attribute names the page sets: lower-case letters, digits and dashes. */
const ATTRIBUTE_NAME = /^[a-z][a-z0-9-]*$/;

/** @param {string} message */
function fail(message) {
  const notice = /** @type {HTMLElement} */ (document.getElementById('notice'));
  notice.textContent = message;
  notice.hidden = false;
}

/** @returns {Record<string, string>} the ?attrs= object; throws a readable error when it is not one of strings */
function attributesFromUrl() {
  const text = new URLSearchParams(location.search).get('attrs');
  if (!text) return {};
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`attrs is not JSON: ${text.slice(0, 200)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('attrs must be a JSON object');
  for (const [name, attribute] of Object.entries(value)) {
    if (!ATTRIBUTE_NAME.test(name)) throw new Error(`attrs: ${JSON.stringify(name)} is not an attribute name`);
    if (typeof attribute !== 'string') throw new Error(`attrs.${name} must be a string`);
  }
  return /** @type {Record<string, string>} */ (value);
}

async function start() {
  const params = new URLSearchParams(location.search);
  if (params.get('host') === 'dark') document.documentElement.classList.add('host-dark');
  const agentId = (params.get('agent-id') || DEFAULT_AGENT_ID).trim().slice(0, 256);

  /** @type {Record<string, string>} */
  let attributes;
  try {
    attributes = attributesFromUrl();
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
    return;
  }
  if (!customElements.get(TAG)) {
    fail('The widget script /dist/voice-agent-widget.js did not load: run npm run build.');
    return;
  }

  let serviceUrl = location.origin;
  try {
    const config = await loadDemoConfig();
    if (config && typeof config.serviceUrl === 'string' && config.serviceUrl) serviceUrl = config.serviceUrl;
  } catch (error) {
    fail(/** @type {Error} */ (error).message);
    return;
  }

  const element = document.createElement(TAG);
  element.setAttribute('agent-id', agentId);
  element.setAttribute('server-url', serviceUrl);
  element.setAttribute('dynamic-variables', DYNAMIC_VARIABLES);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  document.body.append(element);
  document.documentElement.dataset.mounted = 'true';
}

void start();
