// The agent's replies: streamed text (agent_chat_response_part, agent_response), client tool calls, the transcript
// entry and the spoken turn (speaking.mjs); replies of a conversation are produced one after the other.

import { scriptedReply, splitReply, stringifyValue, toolReply } from '../script.mjs';
import { addTranscript, later, secondsInCall, send, sleep } from './session.mjs';

/**
 * @typedef {import('./session.mjs').Session} Session
 * @typedef {import('../records.mjs').Json} Json
 * @typedef {import('../records.mjs').TranscriptEntry} TranscriptEntry
 */

/**
 * The replies of a service's conversations.
 * @param {import('../context.mjs').ServiceContext} ctx
 * @param {ReturnType<typeof import('./speaking.mjs').createSpeaking>['speak']} speak
 */
export function createReplies({ replyDelayMs, toolTimeoutMs, log }, speak) {
  /**
   * Streams `text` (start, deltas, stop) and then sends the whole text as agent_response.
   * @param {Session} session @param {number} eventId @param {string} text
   * @returns {Promise<boolean>} false when the conversation ended meanwhile
   */
  async function streamReply(session, eventId, text) {
    send(session, { type: 'agent_chat_response_part', text_response_part: { text: '', type: 'start', event_id: eventId } });
    for (const part of splitReply(text)) {
      if (!(await sleep(session, session.fault?.part_delay_ms ?? replyDelayMs))) return false;
      send(session, { type: 'agent_chat_response_part', text_response_part: { text: part, type: 'delta', event_id: eventId } });
    }
    if (session.ended) return false;
    send(session, { type: 'agent_chat_response_part', text_response_part: { text: '', type: 'stop', event_id: eventId } });
    send(session, { type: 'agent_response', agent_response_event: { agent_response: text, event_id: eventId } });
    session.agentEventIds.add(eventId);
    return true;
  }

  /**
   * Sends a client tool call and waits for its result.
   * @param {Session} session @param {string} toolName @param {Json} parameters @param {number} eventId
   */
  async function callClientTool(session, toolName, parameters, eventId) {
    session.toolCounter += 1;
    const toolCallId = `call_${session.toolCounter}`;
    const startedAt = Date.now();
    /** @type {Promise<{result: unknown, isError: boolean} | null>} */
    const answered = new Promise((resolve) => {
      const timer = later(session, () => finish(null), toolTimeoutMs);
      const finish = (/** @type {{result: unknown, isError: boolean} | null} */ outcome) => {
        clearTimeout(timer);
        session.timers.delete(timer);
        session.pendingTools.delete(toolCallId);
        resolve(outcome);
      };
      session.pendingTools.set(toolCallId, finish);
    });
    send(session, {
      type: 'client_tool_call',
      client_tool_call: { tool_name: toolName, tool_call_id: toolCallId, parameters, event_id: eventId },
    });
    const outcome = await answered;
    const latency = Math.round(Date.now() - startedAt) / 1000;
    const toolCalls = [{
      request_id: toolCallId,
      tool_name: toolName,
      params_as_json: JSON.stringify(parameters),
      tool_has_been_called: true,
      tool_details: { type: 'client' },
    }];
    const toolResults = [{
      request_id: toolCallId,
      tool_name: toolName,
      result_value: outcome ? stringifyValue(outcome.result) : '',
      is_error: outcome ? outcome.isError : true,
      tool_has_been_called: true,
      tool_latency_secs: latency,
      dynamic_variable_updates: [],
    }];
    return { outcome, toolCalls, toolResults };
  }

  /**
   * @param {Session} session @param {string} userText
   * @param {import('../script.mjs').ScriptedReply} [choice] default: scriptedReply(userText)
   */
  async function reply(session, userText, choice = scriptedReply(userText)) {
    if (session.ended || session.fault?.silent) return;
    session.eventId += 1;
    const eventId = session.eventId;
    /** @type {Partial<TranscriptEntry>} */
    const extra = {};
    let text;
    if (choice.kind === 'tool') {
      const call = await callClientTool(session, choice.toolName, choice.parameters, eventId);
      if (session.ended) return;
      text = toolReply(call.outcome);
      extra.tool_calls = call.toolCalls;
      extra.tool_results = call.toolResults;
    } else {
      text = choice.text;
    }
    if (!(await streamReply(session, eventId, text))) return;
    /** @type {TranscriptEntry} */
    const entry = { role: 'agent', message: text, time_in_call_secs: secondsInCall(session), interrupted: false, ...extra };
    addTranscript(session, entry);
    session.agentEntries.set(eventId, entry);
    const spoken = speak(session, eventId, text);
    if (choice.kind === 'end') {
      await spoken; // the goodbye is heard before the socket closes
      if (session.ended) return;
      session.endedBy = 'agent_ended';
      log(`[service] ${session.label}: the agent ended the conversation`);
      session.ws.close(1000, 'agent ended the conversation');
    }
  }

  /**
   * Queues a reply to the user's turn `userText` after the replies already queued in the conversation.
   * @param {Session} session @param {string} userText
   * @param {import('../script.mjs').ScriptedReply} [choice] default: scriptedReply(userText)
   */
  function queueReply(session, userText, choice) {
    session.queue = session.queue.then(() => reply(session, userText, choice)).catch((error) => {
      log(`[service] ${session.label}: reply failed: ${error?.stack ?? error}`);
    });
  }

  return { queueReply };
}
