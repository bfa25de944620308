// The dev switches (API key): test switches of the reference service only (README.md, "Dev switch" and
// "Fault switches"). A real service has neither.

import { readJsonBody, sendJson } from '../http-helpers.mjs';
import { parseFaults } from '../faults.mjs';
import { newAgentRecord, nowSecs } from '../records.mjs';
import { widgetConfigOf } from './widget.mjs';

/**
 * Largest body of the dev widget switch (`PUT /v1/dev/agents/{agent_id}/widget`), bytes: large enough for a
 * configuration that holds a few 1 MB strings (hostile-config tests); a larger one gets 413.
 */
export const DEV_MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The dev switch routes.
 * @param {import('../context.mjs').ServiceContext} ctx
 * @returns {import('../http-helpers.mjs').Route[]}
 */
export function devRoutes({ agents, faults, authorised, log }) {
  return [
    {
      // Test switch of the reference service only (README.md, "Dev switch"): stores any JSON value as the agent's
      // platform_settings.widget, unvalidated, so tests can serve hostile or wrong-typed widget configurations that
      // PATCH refuses with 422. A real service would refuse such configurations.
      pattern: /^\/v1\/dev\/agents\/([^/]+)\/widget$/,
      methods: {
        async PUT(req, res, [agentId]) {
          if (!authorised(req, res)) return;
          const body = await readJsonBody(req, res, DEV_MAX_BODY_BYTES);
          if (!body) return;
          let agent = agents.get(agentId);
          if (!agent) {
            agent = newAgentRecord(agentId, null, {}, {}, {});
            agents.set(agentId, agent);
          } else {
            agent.metadata = { ...agent.metadata, updated_at_unix_secs: nowSecs() };
          }
          // Kept as parsed (JSON.parse makes `__proto__` an own key; nothing here copies it by assignment).
          agent.platform_settings = { ...agent.platform_settings, widget: body.value };
          agent.devWidget = true;
          log(`[service] agent ${agentId}: widget stored by the dev switch`);
          sendJson(req, res, 200, { agent_id: agentId, widget_config: widgetConfigOf(agent) });
        },
      },
    },
    {
      // Test switch of the reference service only (README.md, "Fault switches"; faults.mjs): the faults of the next
      // widget reads and conversations.
      pattern: /^\/v1\/dev\/faults$/,
      methods: {
        GET(req, res) {
          if (!authorised(req, res)) return;
          sendJson(req, res, 200, faults.current);
        },
        async PUT(req, res) {
          if (!authorised(req, res)) return;
          const body = await readJsonBody(req, res);
          if (!body) return;
          const { faults: next, errors } = parseFaults(body.value);
          if (errors.length > 0) return sendJson(req, res, 422, { detail: errors });
          faults.set(next);
          log(`[service] faults set: ${JSON.stringify(next)}`);
          sendJson(req, res, 200, faults.current);
        },
        DELETE(req, res) {
          if (!authorised(req, res)) return;
          faults.clear();
          log('[service] faults cleared');
          sendJson(req, res, 200, faults.current);
        },
      },
    },
  ];
}
