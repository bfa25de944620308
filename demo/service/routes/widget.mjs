// The widget configuration read, `GET /v1/convai/agents/{agent_id}/widget` (public), with its injected faults
// (faults.mjs, `PUT /v1/dev/faults`).

import { agentNotFound, corsHeaders, sendJson } from '../http-helpers.mjs';
import { cloneJson } from '../records.mjs';
import { isPlainObject } from '../validate.mjs';

/**
 * @typedef {import('../records.mjs').AgentRecord} AgentRecord
 * @typedef {import('../context.mjs').ServiceContext} ServiceContext
 * @typedef {import('node:http').IncomingMessage} IncomingMessage
 * @typedef {import('node:http').ServerResponse} ServerResponse
 */

/**
 * The widget configuration served for an agent: platform_settings.widget, with first_message, language
 * and text_only taken from conversation_config when they are set there. For an agent whose widget was last
 * written through the dev switch (`devWidget`), the stored value exactly as given, whatever it is.
 * @param {AgentRecord} agent
 * @returns {unknown}
 */
export function widgetConfigOf(agent) {
  // Written through the dev switch: served exactly as stored (any JSON value, `__proto__` keys included).
  if (agent.devWidget) return agent.platform_settings?.widget;
  const widget = isPlainObject(agent.platform_settings?.widget) ? cloneJson(agent.platform_settings.widget) : {};
  const cc = agent.conversation_config ?? {};
  if (typeof cc.agent?.first_message === 'string') widget.first_message = cc.agent.first_message;
  if (typeof cc.agent?.language === 'string') widget.language = cc.agent.language;
  if (typeof cc.conversation?.text_only === 'boolean') widget.text_only = cc.conversation.text_only;
  return widget;
}

/**
 * The widget read route.
 * @param {ServiceContext} ctx
 * @returns {import('../http-helpers.mjs').Route[]}
 */
export function widgetRoutes({ agents, faults }) {
  /**
   * Applies a widget-read fault: waits (`delay_ms`, `hang`), then answers with the fault's status/body.
   * Returns true when the normal answer is to follow (no status/body, or the faults were cleared while it waited).
   * @param {IncomingMessage} req @param {ServerResponse} res @param {import('../faults.mjs').WidgetFault} fault
   */
  async function applyWidgetFault(req, res, fault) {
    if (fault.hang || fault.delay_ms !== undefined) {
      const outcome = await faults.hold(res, fault.hang ? undefined : fault.delay_ms);
      if (outcome === 'gone') {
        res.destroy(); // the client went away or the service closed: nothing to answer
        return false;
      }
      if (outcome === 'cleared') return true;
    }
    if (fault.status === undefined && fault.body === undefined) return true;
    const status = fault.status ?? 200;
    const text = fault.body ?? JSON.stringify({ detail: { status: 'injected_fault', message: `Injected fault: HTTP ${status}` } });
    res.writeHead(status, {
      ...corsHeaders(req),
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
      'Cache-Control': 'no-store',
    });
    res.end(text);
    return false;
  }

  return [
    {
      pattern: /^\/v1\/convai\/agents\/([^/]+)\/widget$/,
      methods: {
        async GET(req, res, [agentId]) {
          const fault = faults.takeWidget(agentId);
          if (fault && !(await applyWidgetFault(req, res, fault))) return;
          const agent = agents.get(agentId);
          if (!agent) return agentNotFound(req, res, agentId);
          sendJson(req, res, 200, { agent_id: agent.agent_id, widget_config: widgetConfigOf(agent) });
        },
      },
    },
  ];
}
