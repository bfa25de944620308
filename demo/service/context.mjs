// The context of one service: its options (defaults applied), its state (agents, conversations, open sessions,
// fault switches) and its API key check. createService builds it once and passes it to each route family and
// to the conversation socket.

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createFaults } from './faults.mjs';
import { createAuthorised } from './http-helpers.mjs';
import { cloneJson, newAgentRecord, randomHex } from './records.mjs';
import { synthesize as espeakSynthesize } from './speech.mjs';
import { isPlainObject } from './validate.mjs';

const DEFAULT_FIXTURES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');

/**
 * @typedef {import('./records.mjs').Json} Json
 * @typedef {import('./records.mjs').AgentRecord} AgentRecord
 * @typedef {import('./records.mjs').ConversationRecord} ConversationRecord
 *
 * @typedef {object} ServiceContext
 * @property {string} apiKey
 * @property {(line: string) => void} log
 * @property {number} pingIntervalMs
 * @property {number} replyDelayMs
 * @property {number} toolTimeoutMs
 * @property {number} initiationTimeoutMs
 * @property {number} audioSpeed  speed of the agent's audio stream relative to real time (Infinity: no pacing)
 * @property {(text: string) => Promise<{sampleRate: number, samples: Int16Array}>} synthesize
 * @property {Map<string, AgentRecord>} agents
 * @property {Map<string, ConversationRecord>} conversations
 * @property {Set<import('./socket/session.mjs').Session>} sessions  the open conversation sockets
 * @property {ReturnType<typeof createFaults>} faults  the fault switches (faults.mjs; `PUT /v1/dev/faults`)
 * @property {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => boolean} authorised
 *   checks the x-api-key header; answers 401 and returns false when it is missing or wrong
 */

/**
 * Applies the defaults of the options and builds the state: the seed agents of the fixtures, no conversations.
 * @param {import('./service.mjs').ServiceOptions} options
 * @returns {ServiceContext}
 */
export function createContext(options) {
  const apiKey = options.apiKey ?? `dev_${randomHex(12)}`;
  const fixturesDir = options.fixturesDir ?? DEFAULT_FIXTURES_DIR;
  const audioRealtime = options.audioRealtime ?? true;
  const log = options.log ?? ((line) => console.log(line));

  /** @type {Map<string, AgentRecord>} */
  const agents = new Map();
  for (const agent of loadFixtureAgents(fixturesDir, log)) agents.set(agent.agent_id, agent);

  return {
    apiKey,
    log,
    pingIntervalMs: options.pingIntervalMs ?? 15000,
    replyDelayMs: options.replyDelayMs ?? 35,
    toolTimeoutMs: options.toolTimeoutMs ?? 10000,
    initiationTimeoutMs: options.initiationTimeoutMs ?? 10000,
    audioSpeed: typeof audioRealtime === 'number' && audioRealtime > 0 ? audioRealtime : audioRealtime === false ? Infinity : 1,
    synthesize: options.synthesize ?? espeakSynthesize,
    agents,
    conversations: new Map(),
    sessions: new Set(),
    faults: createFaults(log),
    authorised: createAuthorised(apiKey),
  };
}

/**
 * Reads every `widget-config.*.json` of a directory (the GET-widget response shape `{agent_id, widget_config}`)
 * and builds an agent record from each.
 * @param {string} dir
 * @param {(line: string) => void} log
 * @returns {AgentRecord[]}
 */
function loadFixtureAgents(dir, log) {
  /** @type {string[]} */
  let files;
  try {
    files = readdirSync(dir).filter((name) => /^widget-config\..+\.json$/.test(name)).sort();
  } catch (error) {
    log(`[service] no fixtures read from ${dir}: ${/** @type {Error} */ (error).message}`);
    return [];
  }
  /** @type {AgentRecord[]} */
  const agents = [];
  for (const file of files) {
    try {
      const fixture = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
      if (!isPlainObject(fixture) || typeof fixture.agent_id !== 'string' || !isPlainObject(fixture.widget_config)) {
        throw new Error('expected {agent_id: string, widget_config: object}');
      }
      const label = file.slice('widget-config.'.length, -'.json'.length);
      agents.push(agentFromWidgetConfig(fixture.agent_id, `Fixture agent (${label})`, fixture.widget_config));
    } catch (error) {
      log(`[service] skipped fixture ${file}: ${/** @type {Error} */ (error).message}`);
    }
  }
  return agents;
}

/**
 * An agent record whose widget is `widgetConfig`; its first_message, language and text_only (when set)
 * are copied into conversation_config.
 * @param {string} agentId
 * @param {string} name
 * @param {Json} widgetConfig
 * @returns {AgentRecord}
 */
function agentFromWidgetConfig(agentId, name, widgetConfig) {
  const widget = cloneJson(widgetConfig);
  /** @type {Json} */
  const agent = {};
  if (typeof widget.first_message === 'string') agent.first_message = widget.first_message;
  if (typeof widget.language === 'string') agent.language = widget.language;
  /** @type {Json} */
  const conversation = {};
  if (typeof widget.text_only === 'boolean') conversation.text_only = widget.text_only;
  return newAgentRecord(agentId, name, agent, conversation, { widget });
}
