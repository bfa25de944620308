// The agent endpoints (API key): list, create, read and update (SERVICE-INTERFACE.md 2.7).

import { agentNotFound, readValidBody, sendJson } from '../http-helpers.mjs';
import { cloneJson, deepMerge, nowSecs, randomHex } from '../records.mjs';
import { isPlainObject, validateAgentCreate, validateAgentUpdate } from '../validate.mjs';

/**
 * @typedef {import('../records.mjs').Json} Json
 * @typedef {import('../records.mjs').AgentRecord} AgentRecord
 */

const ACCESS_INFO = Object.freeze({ is_creator: true, creator_name: 'Developer', creator_email: 'dev@localhost' });

/**
 * The agent as the update response (SERVICE-INTERFACE.md 2.7) and the agent read return it.
 * @param {AgentRecord} agent
 */
function agentResponse(agent) {
  /** @type {Json} */
  const out = {
    agent_id: agent.agent_id,
    name: agent.name ?? '',
    conversation_config: cloneJson(agent.conversation_config),
    metadata: cloneJson(agent.metadata),
    platform_settings: cloneJson(agent.platform_settings),
    phone_numbers: [],
  };
  if (agent.workflow !== undefined) out.workflow = cloneJson(agent.workflow);
  out.access_info = { ...ACCESS_INFO };
  out.tags = [...(agent.tags ?? [])];
  return out;
}

/**
 * The agent routes (`/create` comes before `/{agent_id}`, which would match it too).
 * @param {import('../context.mjs').ServiceContext} ctx
 * @returns {import('../http-helpers.mjs').Route[]}
 */
export function agentRoutes({ agents, authorised, log }) {
  return [
    {
      pattern: /^\/v1\/convai\/agents$/,
      methods: {
        GET(req, res) {
          if (!authorised(req, res)) return;
          sendJson(req, res, 200, { agents: [...agents.values()].map((a) => ({ agent_id: a.agent_id, name: a.name ?? '' })) });
        },
      },
    },
    {
      pattern: /^\/v1\/convai\/agents\/create$/,
      methods: {
        async POST(req, res) {
          if (!authorised(req, res)) return;
          const body = await readValidBody(req, res, validateAgentCreate);
          if (!body) return;
          let agentId;
          do agentId = `agent_${randomHex(12)}`;
          while (agents.has(agentId));
          /** @type {AgentRecord} */
          const agent = {
            agent_id: agentId,
            name: body.name ?? null,
            tags: body.tags ?? [],
            conversation_config: body.conversation_config,
            platform_settings: isPlainObject(body.platform_settings) ? body.platform_settings : { widget: {} },
            metadata: { created_at_unix_secs: nowSecs() },
          };
          if (body.workflow !== undefined) agent.workflow = body.workflow;
          agents.set(agentId, agent);
          log(`[service] agent ${agentId} created`);
          sendJson(req, res, 200, { agent_id: agentId });
        },
      },
    },
    {
      pattern: /^\/v1\/convai\/agents\/([^/]+)$/,
      methods: {
        GET(req, res, [agentId]) {
          if (!authorised(req, res)) return;
          const agent = agents.get(agentId);
          if (!agent) return agentNotFound(req, res, agentId);
          sendJson(req, res, 200, agentResponse(agent));
        },
        async PATCH(req, res, [agentId]) {
          if (!authorised(req, res)) return;
          const body = await readValidBody(req, res, validateAgentUpdate);
          if (!body) return;
          const agent = agents.get(agentId);
          if (!agent) return agentNotFound(req, res, agentId);
          if ('name' in body) agent.name = body.name;
          if ('tags' in body) agent.tags = body.tags ?? [];
          if (isPlainObject(body.conversation_config)) agent.conversation_config = deepMerge(agent.conversation_config, body.conversation_config);
          if (isPlainObject(body.platform_settings)) agent.platform_settings = deepMerge(agent.platform_settings, body.platform_settings);
          delete agent.devWidget; // an agent PATCHed after the dev switch is served as any other again
          if (isPlainObject(body.workflow)) agent.workflow = deepMerge(agent.workflow ?? {}, body.workflow);
          agent.metadata = { ...agent.metadata, updated_at_unix_secs: nowSecs() };
          log(`[service] agent ${agentId} updated`);
          sendJson(req, res, 200, agentResponse(agent));
        },
      },
    },
  ];
}
